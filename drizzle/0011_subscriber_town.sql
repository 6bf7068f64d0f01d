ALTER TABLE "newsletter_subscriber" ADD COLUMN "town_id" integer;--> statement-breakpoint
ALTER TABLE "newsletter_subscriber" ADD COLUMN "town_label" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscriber" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "newsletter_subscriber" ADD COLUMN "longitude" double precision;--> statement-breakpoint
CREATE INDEX "newsletter_subscriber_place_idx" ON "newsletter_subscriber" USING btree ("latitude","longitude") WHERE "newsletter_subscriber"."status" = 'active' and "newsletter_subscriber"."latitude" is not null;