CREATE TABLE "account_protection" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"allow_list_only" boolean DEFAULT true NOT NULL,
	"allow_list_since" timestamp with time zone DEFAULT now() NOT NULL,
	"sends_paused_until" timestamp with time zone,
	"frozen_at" timestamp with time zone,
	"frozen_by_operator" boolean DEFAULT false NOT NULL,
	"unfreezes_at" timestamp with time zone,
	"unfreeze_code_hash" text,
	"unfreeze_code_attempts" integer DEFAULT 0 NOT NULL,
	"unfreeze_code_expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "address_book" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"label" text,
	"own_wallet" boolean NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"usable_from" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "anti_phishing_phrases" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"phrase" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"client" text NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_events_kind" CHECK ("security_events"."kind" in ('address_added', 'address_removed', 'address_cancelled_by_link', 'allow_list_on', 'allow_list_off', 'phrase_set', 'phrase_changed', 'phrase_removed', 'email_changed', 'frozen', 'frozen_by_link', 'frozen_by_operator', 'unfreeze_requested', 'unfreeze_confirmed', 'unfrozen_by_operator'))
);
--> statement-breakpoint
CREATE TABLE "security_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"entry_id" uuid,
	"language" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_links_purpose" CHECK ("security_links"."purpose" in ('freeze', 'cancel_address')),
	CONSTRAINT "security_links_cancel_has_entry" CHECK (("security_links"."purpose" = 'cancel_address') = ("security_links"."entry_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idp_users" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "wallet_sends" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_protection" ADD CONSTRAINT "account_protection_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book" ADD CONSTRAINT "address_book_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anti_phishing_phrases" ADD CONSTRAINT "anti_phishing_phrases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_links" ADD CONSTRAINT "security_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_links" ADD CONSTRAINT "security_links_entry_id_address_book_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."address_book"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_live_entry" ON "address_book" USING btree ("account_id","currency","address") WHERE "address_book"."cancelled_at" is null;--> statement-breakpoint
CREATE INDEX "address_book_account" ON "address_book" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "security_events_account" ON "security_events" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "security_links_expires" ON "security_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "accounts_email" ON "accounts" USING btree ("email");--> statement-breakpoint
-- The accounts that exist already keep sending as before: allow-list mode off (they have no address
-- book yet, and turning it on would stop their next send for a day without warning). They switch it
-- on from the security page; accounts created from now on start with it on (the column default).
INSERT INTO "account_protection" ("account_id", "allow_list_only") SELECT "id", false FROM "accounts" ON CONFLICT DO NOTHING;
