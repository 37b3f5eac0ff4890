ALTER TABLE "verifications" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "request_language" text;