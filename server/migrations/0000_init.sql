CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"account_key" text NOT NULL,
	"email" text,
	"display_name" text,
	"deposit_limit_eur_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_deposit_limit_positive" CHECK ("accounts"."deposit_limit_eur_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idp_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"phase" text DEFAULT 'not_enabled' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifications_account_id_kind_pk" PRIMARY KEY("account_id","kind"),
	CONSTRAINT "verifications_kind" CHECK ("verifications"."kind" in ('address', 'bank', 'business', 'id', 'mobile')),
	CONSTRAINT "verifications_phase" CHECK ("verifications"."phase" in ('not_enabled', 'step_1', 'step_2', 'verified'))
);
--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_issuer_subject_key" ON "accounts" USING btree ("issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_account_key_key" ON "accounts" USING btree ("account_key");--> statement-breakpoint
CREATE UNIQUE INDEX "idp_users_email_key" ON "idp_users" USING btree ("email");