ALTER TABLE "verifications" ADD COLUMN "submit_language" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_rejection_reason" CHECK ("verifications"."rejection_reason" is null or "verifications"."rejection_reason" in ('unreadable', 'expired', 'mismatch', 'incomplete'));--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_rejection_dated" CHECK (("verifications"."rejection_reason" is null) = ("verifications"."rejected_at" is null));