ALTER TABLE "wallet_sends" ADD COLUMN "eur_value" bigint;--> statement-breakpoint
CREATE INDEX "orders_address" ON "orders" USING btree ("address") WHERE "orders"."address" is not null;--> statement-breakpoint
CREATE INDEX "wallet_sends_owner_confirmed" ON "wallet_sends" USING btree ("owner_id","confirmed_at");