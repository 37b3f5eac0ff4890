-- The audit trail becomes append-only and chained by hash (schema.ts, modules/audit). Written by
-- hand around drizzle-kit's tables: the rows of the old audit_log are carried into the chain.
ALTER TABLE "audit_log" RENAME TO "audit_log_0001";--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"before" jsonb,
	"after" jsonb,
	"prev_hash" text,
	"hash" text NOT NULL,
	CONSTRAINT "audit_log_hash_hex" CHECK ("audit_log"."hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "audit_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL,
	"last_hash" text,
	CONSTRAINT "audit_head_singleton" CHECK ("audit_head"."id" = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_prev_hash" ON "audit_log" USING btree ("prev_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_one_first" ON "audit_log" USING btree ((true)) WHERE prev_hash is null;--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");--> statement-breakpoint
-- The old rows, oldest first, chained as modules/audit/service.ts chains new ones: the hash is
-- SHA-256 of PostgreSQL's text of the jsonb array [prev_hash, id, at, actor, action, target,
-- before, after], `at` written as ISO 8601 UTC to the millisecond. An old row's account becomes
-- its target (the account key; the id if the account is gone), its detail its `after`; a
-- customer's request names the customer by account key. The benchmark's filler rows
-- (bench.insert, BENCH_ROUTES only) were never operator actions and are left behind.
DO $$
DECLARE
  r record;
  n bigint := 0;
  previous text := NULL;
  digest text;
BEGIN
  FOR r IN
    SELECT CASE WHEN l.actor = 'account:' || l.account_id::text AND a.account_key IS NOT NULL THEN 'account:' || a.account_key ELSE l.actor END AS actor,
           l.action,
           coalesce(a.account_key, l.account_id::text) AS target,
           l.detail,
           date_trunc('milliseconds', l.created_at) AS at
    FROM "audit_log_0001" l LEFT JOIN "accounts" a ON a.id = l.account_id
    WHERE l.action <> 'bench.insert'
    ORDER BY l.created_at, l.id
  LOOP
    n := n + 1;
    digest := encode(sha256(convert_to(jsonb_build_array(previous, n, to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.actor, r.action, r.target, NULL::jsonb, r.detail)::text, 'UTF8')), 'hex');
    INSERT INTO "audit_log" ("id", "at", "actor", "action", "target", "before", "after", "prev_hash", "hash") VALUES (n, r.at, r.actor, r.action, r.target, NULL, r.detail, previous, digest);
    previous := digest;
  END LOOP;
  INSERT INTO "audit_head" ("id", "last_id", "last_hash") VALUES (1, n, previous);
END
$$;--> statement-breakpoint
DROP TABLE "audit_log_0001";--> statement-breakpoint
-- Append-only, as ledger transfers (0002): a correction is a new row, never an edit.
CREATE FUNCTION "audit_log_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_change" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_immutable"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_immutable"();--> statement-breakpoint
-- The head only moves forward, one row at a time, and stays.
CREATE FUNCTION "audit_head_forward"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.id = OLD.id AND NEW.last_id = OLD.last_id + 1 THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'the audit head only moves forward by one row';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_head_no_change" BEFORE UPDATE OR DELETE ON "audit_head" FOR EACH ROW EXECUTE FUNCTION "audit_head_forward"();--> statement-breakpoint
CREATE TRIGGER "audit_head_no_truncate" BEFORE TRUNCATE ON "audit_head" FOR EACH STATEMENT EXECUTE FUNCTION "audit_head_forward"();
