ALTER TABLE "newsletter_campaign" ADD COLUMN "relay_error_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_campaign" ADD COLUMN "relay_error" text;