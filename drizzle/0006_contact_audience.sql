CREATE TABLE "contact_message" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'unread' NOT NULL,
	"notify_mail_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contact_reply" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"body" text NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"mail_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_view_daily" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"referrer" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "page_view_daily_day_path_referrer_utm_source_pk" PRIMARY KEY("day","path","referrer","utm_source")
);
--> statement-breakpoint
ALTER TABLE "contact_message" ADD CONSTRAINT "contact_message_notify_mail_id_outbox_mail_id_fk" FOREIGN KEY ("notify_mail_id") REFERENCES "public"."outbox_mail"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_reply" ADD CONSTRAINT "contact_reply_message_id_contact_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."contact_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_reply" ADD CONSTRAINT "contact_reply_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_reply" ADD CONSTRAINT "contact_reply_mail_id_outbox_mail_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."outbox_mail"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_message_created_idx" ON "contact_message" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "contact_message_status_idx" ON "contact_message" USING btree ("status");--> statement-breakpoint
CREATE INDEX "contact_reply_message_idx" ON "contact_reply" USING btree ("message_id","created_at");--> statement-breakpoint
CREATE INDEX "page_view_daily_day_idx" ON "page_view_daily" USING btree ("day");