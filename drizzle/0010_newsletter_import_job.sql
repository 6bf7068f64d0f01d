ALTER TABLE "newsletter_import" ADD COLUMN "status" text DEFAULT 'preview' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_import" ADD COLUMN "total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_import" ADD COLUMN "done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_import" ADD COLUMN "added" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_import" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "newsletter_import" ADD COLUMN "finished_at" timestamp with time zone;