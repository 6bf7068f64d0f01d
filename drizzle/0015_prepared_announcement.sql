ALTER TABLE "newsletter_campaign" ADD COLUMN "prepared_for_event" text;--> statement-breakpoint
ALTER TABLE "newsletter_campaign" ADD COLUMN "prepared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_campaign" ADD CONSTRAINT "newsletter_campaign_prepared_for_event_event_id_fk" FOREIGN KEY ("prepared_for_event") REFERENCES "public"."event"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_campaign_prepared_for_event_idx" ON "newsletter_campaign" USING btree ("prepared_for_event");