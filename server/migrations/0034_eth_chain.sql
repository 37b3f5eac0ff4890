CREATE TABLE "chain_house_txs" (
	"currency" text NOT NULL,
	"txid" text NOT NULL,
	"height" integer NOT NULL,
	"fee" numeric(38, 0) NOT NULL,
	"failed" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_house_txs_currency_txid_pk" PRIMARY KEY("currency","txid")
);
