DROP INDEX "orders_status";--> statement-breakpoint
DROP INDEX "orders_receiving_address";--> statement-breakpoint
DROP INDEX "orders_account";--> statement-breakpoint
DROP INDEX "outbox_retain_until";--> statement-breakpoint
CREATE INDEX "orders_processing" ON "orders" USING btree ("funded_at") WHERE "orders"."status" = 'processing';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_receiving_address" ON "orders" USING btree ("receiving_address") WHERE "orders"."receiving_address" is not null;--> statement-breakpoint
CREATE INDEX "orders_account" ON "orders" USING btree ("account_id") WHERE "orders"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_retain_until" ON "outbox" USING btree ("retain_until") WHERE "outbox"."retain_until" is not null;