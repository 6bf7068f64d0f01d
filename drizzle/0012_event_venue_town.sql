ALTER TABLE "event" ADD COLUMN "coordinates_source" text;--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "town_id" integer;--> statement-breakpoint
-- Coordinates typed before the town list existed are the admins' own: kept, never looked up again.
UPDATE "event" SET "coordinates_source" = 'manual' WHERE "latitude" IS NOT NULL AND "longitude" IS NOT NULL;
