ALTER TABLE "outbox" ADD COLUMN "retain_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "data_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_retain_until" ON "outbox" USING btree ("retain_until");