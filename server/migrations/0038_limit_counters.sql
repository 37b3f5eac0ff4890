CREATE TABLE "limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "limit_counters_window_ends" ON "limit_counters" USING btree ("window_ends_at");