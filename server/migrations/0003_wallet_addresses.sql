CREATE TABLE "address_counters" (
	"currency" text PRIMARY KEY NOT NULL,
	"next_index" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reception_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"address" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reception_addresses" ADD CONSTRAINT "reception_addresses_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reception_addresses_address" ON "reception_addresses" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "reception_addresses_currency_index" ON "reception_addresses" USING btree ("currency","derivation_index");--> statement-breakpoint
CREATE INDEX "reception_addresses_owner" ON "reception_addresses" USING btree ("owner_id");