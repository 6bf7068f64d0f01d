CREATE TABLE "code" (
	"code" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "code_uses_within_limit" CHECK ("code"."uses" >= 0 and "code"."uses" <= "code"."max_uses")
);
--> statement-breakpoint
CREATE TABLE "code_attempt" (
	"id" text PRIMARY KEY NOT NULL,
	"outcome" text NOT NULL,
	"campaign_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_batch" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"kind" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"requested" integer NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"revoked_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "code_campaign" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"uses_per_code" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_campaign_file" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_download" (
	"id" text PRIMARY KEY NOT NULL,
	"file_id" text NOT NULL,
	"user_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_redemption" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"campaign_id" text NOT NULL,
	"user_id" text,
	"status" text NOT NULL,
	"token_hash" text,
	"reserved_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"granted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "code_attempt" ADD CONSTRAINT "code_attempt_campaign_id_code_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."code_campaign"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_batch" ADD CONSTRAINT "code_batch_campaign_id_code_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."code_campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_batch" ADD CONSTRAINT "code_batch_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_campaign" ADD CONSTRAINT "code_campaign_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_campaign_file" ADD CONSTRAINT "code_campaign_file_campaign_id_code_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."code_campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_download" ADD CONSTRAINT "code_download_file_id_code_campaign_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."code_campaign_file"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_download" ADD CONSTRAINT "code_download_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_redemption" ADD CONSTRAINT "code_redemption_code_code_code_fk" FOREIGN KEY ("code") REFERENCES "public"."code"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_redemption" ADD CONSTRAINT "code_redemption_campaign_id_code_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."code_campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_redemption" ADD CONSTRAINT "code_redemption_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_batch_code_idx" ON "code" USING btree ("batch_id","code");--> statement-breakpoint
CREATE INDEX "code_attempt_at_idx" ON "code_attempt" USING btree ("at");--> statement-breakpoint
CREATE INDEX "code_batch_campaign_idx" ON "code_batch" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "code_campaign_file_campaign_idx" ON "code_campaign_file" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "code_download_file_idx" ON "code_download" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "code_download_user_idx" ON "code_download" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "code_redemption_code_user_idx" ON "code_redemption" USING btree ("code","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "code_redemption_token_idx" ON "code_redemption" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "code_redemption_user_idx" ON "code_redemption" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "code_redemption_campaign_granted_idx" ON "code_redemption" USING btree ("campaign_id","granted_at");--> statement-breakpoint
CREATE INDEX "code_redemption_reserved_idx" ON "code_redemption" USING btree ("status","reserved_until");