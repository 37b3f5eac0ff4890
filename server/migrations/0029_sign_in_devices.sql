CREATE TABLE "sign_in_devices" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"device_hash" text NOT NULL,
	"client" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_devices_issuer_subject_device_hash_pk" PRIMARY KEY("issuer","subject","device_hash")
);
--> statement-breakpoint
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_kind";--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_kind" CHECK ("security_events"."kind" in ('address_added', 'address_removed', 'address_cancelled_by_link', 'allow_list_on', 'allow_list_off', 'phrase_set', 'phrase_changed', 'phrase_removed', 'email_changed', 'frozen', 'frozen_by_link', 'frozen_by_operator', 'unfreeze_requested', 'unfreeze_confirmed', 'unfrozen_by_operator', 'signed_in_new_device'));