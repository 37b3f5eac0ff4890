CREATE TABLE "wallet_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"amount" bigint NOT NULL,
	"network_fee" bigint NOT NULL,
	"label" text,
	"recipient_id" uuid,
	"status" text DEFAULT 'awaiting_code' NOT NULL,
	"idempotency_key" text,
	"code_hash" text NOT NULL,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "wallet_sends_amount_positive" CHECK ("wallet_sends"."amount" > 0 and "wallet_sends"."network_fee" >= 0),
	CONSTRAINT "wallet_sends_status" CHECK ("wallet_sends"."status" in ('awaiting_code', 'processing', 'completed', 'failed')),
	CONSTRAINT "wallet_sends_attempts" CHECK ("wallet_sends"."code_attempts" between 0 and 5)
);
--> statement-breakpoint
ALTER TABLE "wallet_sends" ADD CONSTRAINT "wallet_sends_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_sends" ADD CONSTRAINT "wallet_sends_recipient_id_accounts_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_sends_owner_idempotency" ON "wallet_sends" USING btree ("owner_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "wallet_sends_status" ON "wallet_sends" USING btree ("status","confirmed_at");