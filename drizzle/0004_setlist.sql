CREATE TABLE "setlist" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"event_id" text,
	"published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "setlist_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "setlist_item" (
	"id" text PRIMARY KEY NOT NULL,
	"setlist_id" text NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"song_id" text,
	"label" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "song" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"original_artist" text,
	"duration_seconds" integer,
	"musical_key" text,
	"tempo" integer,
	"notes" text DEFAULT '' NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "setlist" ADD CONSTRAINT "setlist_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setlist" ADD CONSTRAINT "setlist_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setlist" ADD CONSTRAINT "setlist_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setlist_item" ADD CONSTRAINT "setlist_item_setlist_id_setlist_id_fk" FOREIGN KEY ("setlist_id") REFERENCES "public"."setlist"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setlist_item" ADD CONSTRAINT "setlist_item_song_id_song_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."song"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "setlist_updated_idx" ON "setlist" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "setlist_item_setlist_position_idx" ON "setlist_item" USING btree ("setlist_id","position");--> statement-breakpoint
CREATE INDEX "setlist_item_song_idx" ON "setlist_item" USING btree ("song_id");--> statement-breakpoint
CREATE INDEX "song_archived_title_idx" ON "song" USING btree ("archived","title");