import fs from 'node:fs';
import path from 'node:path';
import { operatorKey } from '../../../domain/operators';
import { loadConfig, type Config } from '../config';
import { restorePglite } from '../db/client';
import { KEYS_FILE, mintAccessToken, readIdpKeys } from '../dev/keys';
import { terminal } from './terminal';
import type { AuditListResponse, AuditVerifyResponse } from '../../../domain/contracts/audit';
import type { AuthConfig } from '../../../domain/contracts/auth';
import type {
  AssignPaymentResponse,
  BankExportsResponse,
  BankPaymentsResponse,
  ExportPayoutsResponse,
  ImportStatementResponse,
  PayoutReturnsAwaitingResponse,
  RefundPaymentResponse,
} from '../../../domain/contracts/bank';
import type { ChainAlertsResponse, ChainOutput, ChainReturnResponse, ChainUnmatchedResponse, ReconcileResponse } from '../../../domain/contracts/chain';
import type {
  OpsAccountResponse,
  OpsAccountsResponse,
  OpsOrderResponse,
  OpsOrderSummary,
  OpsOrdersResponse,
  OpsQueues,
  VerificationDocumentsResponse,
  VerificationRejectResponse,
} from '../../../domain/contracts/console';
import type { FaucetStatus } from '../../../domain/contracts/faucet';
import type { PublishResponse } from '../../../domain/contracts/liabilities';
import type {
  BusinessPayment,
  OrderReview,
  ChainDeposit,
  DevTokenResponse,
  EnableVerificationResponse,
  LedgerVerifyResponse,
  OpsUsersResponse,
  OutboxResponse,
  PaymentReceived,
  RetentionRun,
  VerificationRequestsResponse,
  VerifyResponse,
} from '../../../domain/contracts/ops';
import type { Payout, PayoutApproveResponse, PayoutRejectResponse, PayoutResultResponse, PayoutsResponse } from '../../../domain/contracts/payouts';
import type { OpsFreezeResponse } from '../../../domain/contracts/protection';
import type { ErrorBody } from '../../../domain/errors';

/**
 * `npm run ops -- <command>`: the operator's command line. It talks to the running server
 * through /api/ops — PGlite belongs to the server process, so nothing else opens the database.
 * It reads its settings as the server does (config.ts: the environment over `.env`), so it finds
 * the server at its HOST and PORT (or OPS_URL) and the local provider's key in its DATA_DIR.
 * Locally it signs its own admin token with that key, for the issuer and audience the server
 * itself announces (so IDP_PORT need not be repeated); in production it uses OPS_TOKEN (an Auth0
 * token with use:muntly and admin:muntly).
 * Locally it acts as the operator OPS_SUBJECT (default `ops-cli`), or `<OPS_SUBJECT>:<email>` with
 * `--as <email>` or OPS_AS=<email> (four eyes: two operators approve a payout, so locally two
 * emails act as two operators); with OPS_TOKEN the operator is the token's subject.
 */
const USAGE = `Usage: npm run ops -- <command>

Commands:
  users                   list every account
  grant-admin <email>     give a local user the admin:muntly scope
  dev-token <email>       (local only) print an access token for this email, creating the user if needed
  enable-verification <email> <kind>
                          enable a verification kind (address, bank, business, id, mobile) for a user
  verification-requests [--all] [--json]
                          verification kinds users asked to have enabled and still waiting,
                          oldest first (--all: also those enabled since)
  verify <email> <kind>   mark a kind verified after checking a document by hand (e.g. id)
  freeze <email|accountKey> --reason <text>
                          freeze an account's sends at once: only an operator unfreezes them, and
                          its payouts wait for approval; the reason is audited, never shown to the user
  unfreeze <email|accountKey> --reason <text>
                          unfreeze an account's sends at once, skipping the user's cool-down (only
                          after they proved who they are); the reason is audited
  verification-documents [--json]
                          submissions waiting for a document to be checked by hand (the ID), oldest first
  reject-verification <email> <kind> <unreadable|expired|mismatch|incomplete>
                          send submitted details back to step 1; the customer reads the reason in
                          their language (identity page and email)
  queues [--json]         how much waits: verification requests, documents, unmatched payments,
                          payouts awaiting approval
  orders [<reference | part of an email>] [--status <s>] [--type <t>] [--since <day>] [--until <day>] [--json]
                          orders, newest first
  order <reference> [--json]
                          one order and its whole history (its times, payouts and audit rows)
  accounts <email part | account key> [--json]
                          accounts by email or account key
  account <accountKey> [--json]
                          one account: balances, verifications, recent orders and sends, audit rows
  ledger:verify           check every ledger invariant; exits 1 when one fails
  liabilities:publish     take a snapshot of everything owed (one consistent read) and publish its
                          proof of solvency: per currency the root of a Merkle sum tree (the total
                          owed) and what the house held (every server replica also does this daily)
  retention               delete identity data and support messages whose retention period has
                          ended (every server replica also does this hourly)
  chain-deposit <currency> <address> <amount> [txid]
                          simulate an incoming chain deposit to a wallet reception address
                          or to the receiving address of a sell/swap order
  reconcile               per currency with a node: the house's coins on chain (the node's count)
                          against the ledger; exits 1 on a difference (which also raises an alert)
  chain-unmatched         the unmatched chain queue: dust, coins at addresses that expected nothing
  chain-assign <currency> <txid> <vout> <email>
                          credit an unmatched output to the wallet of the account with this email
  chain-return <currency> <txid> <vout> <address>
                          send an unmatched output back, less the network fee, to the address its
                          sender named (a payout; it may wait for a second operator)
  chain-alerts [resolve <id>]
                          open chain alerts (a deposit booked back after a reorg, a reconciliation
                          difference), or mark one handled
  payment-received <reason> <amountEUR> [txid] [--business] [--iban <payer IBAN>]
                          simulate an incoming SEPA payment; reason = a buy order's short
                          reference (ABCD-EFGH) or a deposit reference (DEPOSIT<key> [CUR]);
                          --business: the payer is a business account (the buy waits for a
                          verified business); --iban: the payer's IBAN (their week counts by it)
  business-payment <reference>
                          the bank statement shows this buy was paid from a business account:
                          it waits until a business behind it is verified
  order-review <reference> convert|refund
                          an anonymous order held because its payer's week passed the cap:
                          convert it anyway, or send the money back to the payer
  outbox [--json] [--to <recipient>]
                          messages sent by email, SMS, post and bank transfer, newest first
  faucet status|pause|resume|fund <eur>
                          the faucet: show it, pause it (GAME OVER after the current round), resume it, add budget
  payouts [--status <awaiting_approval|pending|submitting|submitted|completed|failed>] [--rail chain|bank] [--json]
                          payouts, oldest first; an external signer or bank executes the submitted ones;
                          awaiting_approval: those waiting for two operators, with why and who reviewed
  payout-result <id> completed <txid> | payout-result <id> failed <reason>
                          report what became of a submitted payout (what the signer or bank reports)
  audit [--action <a>] [--actor <x>] [--target <t>] [--since <date>] [--until <date>]
        [--limit <n>] [--cursor <id>] [--json | --csv]
                          the audit trail, newest first (--csv: every matching row, oldest first);
                          an action ending with a dot is a group (--action faucet.)
  audit:verify            recompute the audit trail's hash chain; exits 1 at the first broken row
  import-statement <file> [--json]
                          import the bank's camt.053 statement (or a camt.054 notification, in any
                          encoding it declares; other accounts in the file are skipped and named):
                          credits pay the orders and deposits
                          their reason names (as payment-received), once per bank reference; the
                          others go to the unmatched queue; debits complete exported payouts;
                          a return (the payee's bank sent a payout back) returns its payout
  unmatched [--status open|matched|assigned|refunded|returned|all] [--json]
                          bank payments from statements; by default the unmatched queue (open)
  returns [--json]        returned payouts waiting for the customer's new IBAN, oldest first
  return-link <id>        email an anonymous seller a new link for their new IBAN (the old one
                          stops working)
  assign-payment <id> <order reference | DEPOSIT<accountKey> [CUR]>
                          book an unmatched payment for this order or deposit
  refund-payment <id>     send an unmatched payment back to the payer's IBAN (a SEPA payout,
                          in the next payouts file)
  export-payouts [--out <file>]
                          every EUR payout that is due, in one SEPA credit transfer file
                          (pain.001.001.03) to upload to the bank; default file: <MsgId>.xml
  bank-exports [--json]   the payouts files made so far, newest first
  bank-export <id> [--out <file>]
                          a payouts file again, as it was made
  payout-approve <id>     approve a payout awaiting approval: the first operator's approval is the review,
                          a second, different operator's releases it (neither may be who triggered it)
  payout-reject <id> <reason>
                          reject a payout awaiting approval: it fails and its money goes back (a send to
                          the balance, an order is refunded)

Options: --as <email>    (local) act as the operator <OPS_SUBJECT>:<email> instead of OPS_SUBJECT (also OPS_AS)

Settings as the server reads them (the environment over .env): PORT and HOST (or OPS_URL) to find
the server, DATA_DIR for the local provider's key, OPS_SUBJECT (default ops-cli) as who acts
locally, OPS_TOKEN in production.`;

/** A failure to report: exit code 2 for a usage or connection problem, 1 for a check that failed. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/**
 * Every line this file prints goes through the CLI's one output (terminal.ts): customer data is
 * printed with its control characters escaped. Named `console` so that no line — one added later
 * included — can print around it.
 */
const console = terminal;

/** Locally, who the operator is: OPS_SUBJECT, or `<OPS_SUBJECT>:<email>` for `--as <email>` / OPS_AS (set by `run`). */
let actingAs: string | undefined;

/** The server's settings, read as the server reads them; a bad one is reported like any other problem. */
function settings(): Config {
  try {
    return loadConfig();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/**
 * The token for /api/ops. Locally: signed with the key in DATA_DIR for the issuer and audience the
 * server announces at /api/auth/config, so the two cannot disagree about IDP_PORT.
 */
async function adminToken(config: Config): Promise<{ token: string; signedHere: boolean }> {
  if (config.OPS_TOKEN) {
    if (actingAs) throw new CliError('--as (OPS_AS) is for local mode: with OPS_TOKEN, the operator is the token’s subject.');
    return { token: config.OPS_TOKEN, signedHere: false };
  }
  if (!config.localIdp) throw new CliError('Set OPS_TOKEN to an access token with the scopes use:muntly and admin:muntly.');
  if (!fs.existsSync(path.join(config.DATA_DIR, KEYS_FILE))) {
    throw new CliError(`No local identity provider key in ${config.DATA_DIR}: start the server first (npm start), or give this command the server's DATA_DIR (.env).`);
  }
  const server = (await request(config, 'GET', '/api/auth/config')).payload as AuthConfig;
  const token = await mintAccessToken(readIdpKeys(config.DATA_DIR), {
    issuer: `${server.domain}/`,
    audience: server.audience,
    subject: actingAs ? `${config.OPS_SUBJECT}:${actingAs}` : config.OPS_SUBJECT,
    ...(actingAs ? { email: actingAs } : {}),
    scope: 'use:muntly admin:muntly',
    ttlSeconds: 300,
  });
  return { token, signedHere: true };
}

async function request(
  config: Config,
  method: 'GET' | 'POST',
  route: string,
  options: { token?: string; body?: unknown; text?: boolean; binary?: boolean; xml?: Uint8Array } = {},
): Promise<{ response: Response; payload: unknown }> {
  let response: Response;
  try {
    response = await fetch(new URL(route, config.opsUrl), {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.xml !== undefined ? { 'content-type': 'application/xml' } : options.body ? { 'content-type': 'application/json' } : {}),
      },
      body: options.xml ? new Blob([new Uint8Array(options.xml)]) : options.body ? JSON.stringify(options.body) : undefined,
    });
  } catch {
    throw new CliError(`Cannot reach the Muntly server at ${config.opsUrl}: is it running (npm start), and on this PORT (or OPS_URL)? Both read .env.`);
  }
  if (options.text && response.ok) return { response, payload: await response.text() };
  if (options.binary && response.ok) return { response, payload: Buffer.from(await response.arrayBuffer()) };
  return { response, payload: await response.json().catch(() => ({})) };
}

/** Tokens the server refuses because it does not know the key they were signed with. */
const FOREIGN_KEY = new Set(['token_unknown_key', 'token_invalid_signature']);

async function call(method: 'GET' | 'POST', route: string, body?: unknown, options: { text?: boolean; xml?: Uint8Array } = {}): Promise<unknown> {
  return (await callWithResponse(method, route, body, options)).payload;
}

/** As call, with the response too (its headers: a bank file's name). */
async function callWithResponse(
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  options: { text?: boolean; binary?: boolean; xml?: Uint8Array } = {},
): Promise<{ response: Response; payload: unknown }> {
  const config = settings();
  const { token, signedHere } = await adminToken(config);
  const { response, payload } = await request(config, method, route, { token, body, ...options });
  if (response.ok) return { response, payload };
  const error = (payload as Partial<ErrorBody>).error;
  if (signedHere && error && FOREIGN_KEY.has(error.code)) {
    throw new CliError(`The server at ${config.opsUrl} does not know the signing key in ${config.DATA_DIR}: give this command the server's DATA_DIR (.env).`);
  }
  throw new CliError(`${response.status} ${error?.code ?? ''}: ${error?.message ?? 'request failed'}`);
}

/** The value after `--name`, if the option is given (an option without its value is refused). */
function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new CliError(`${name} needs a value.`);
  return value;
}

/** Writes a bank file, refusing to overwrite one (a payouts file uploaded twice pays twice). */
function writeFile(file: string, contents: string | Buffer): void {
  try {
    fs.writeFileSync(file, contents, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new CliError(`${file} exists already: choose another name with --out.`);
    throw error;
  }
}

const payoutsCount = (n: number) => `${n} payout${n === 1 ? '' : 's'}`;

function requireEmail(value: string | undefined): string {
  if (!value) throw new CliError('This command needs an email address.');
  return value;
}

/** The account key an operator named: as given, or the key of the account with this email address. */
async function accountKeyOf(who: string): Promise<string> {
  if (!who.includes('@')) return who;
  const { users } = (await call('GET', `/api/ops/users?email=${encodeURIComponent(who)}`)) as OpsUsersResponse;
  if (!users[0]) throw new CliError(`No account with the email address ${who}.`);
  return users[0].accountKey;
}

/** `--as <email>` anywhere among the arguments (else OPS_AS): the operator this run acts as, locally. */
function operatorOption(args: string[]): { as: string | undefined; args: string[] } {
  const at = args.indexOf('--as');
  // One rule for both (domain/operators.ts): `--as Bob@x` and OPS_AS=bob@x are one operator.
  const named = (email: string | undefined, what: string) => {
    const key = email === undefined ? '' : operatorKey(email);
    if (!/^[^\s@]+@[^\s@]+$/.test(key)) throw new CliError(`${what} needs an email address.`);
    return key;
  };
  if (at < 0) return { as: process.env.OPS_AS ? named(process.env.OPS_AS, 'OPS_AS') : undefined, args };
  return { as: named(args[at + 1], '--as'), args: [...args.slice(0, at), ...args.slice(at + 2)] };
}

/** One payout on one line; one waiting for approval says why, and who has reviewed it. */
function payoutLine(p: Payout): string {
  const outcome = p.txid ? `txid ${p.txid}` : p.failureReason ? `failed: ${p.failureReason}` : '';
  const approval = p.approval
    ? `  ${p.approval.reason}${p.eurValue ? ` (worth EUR ${p.eurValue})` : ''}${p.triggeredBy ? `, triggered by ${p.triggeredBy}` : ''}, ${
        p.approval.rejectedBy
          ? `rejected by ${p.approval.rejectedBy}`
          : p.approval.approvedBy
            ? `approved by ${p.approval.reviewedBy} and ${p.approval.approvedBy}`
            : p.approval.reviewedBy
              ? `reviewed by ${p.approval.reviewedBy}, waiting for a second operator`
              : 'waiting for two operators'
      }`
    : '';
  return `${p.id}  ${p.createdAt}  ${p.status.padEnd(10)}  ${p.purpose.padEnd(14)}  ${p.amount} ${p.currency} (+${p.networkFee}) → ${p.destination ?? 'the sender'}  ${outcome}${approval}`;
}

function orderLine(o: OpsOrderSummary): string {
  return `${o.reference}  ${o.createdAt}  ${o.type.padEnd(7)}  ${o.status.padEnd(17)}  ${o.amount} ${o.currencyFrom} → ${o.currencyTo} (EUR ${o.amountEur})  ${o.email}${o.accountKey ? `  ${o.accountKey}` : ''}${o.failureReason ? `  ${o.failureReason}` : ''}`;
}

export async function run(argv: string[]): Promise<void> {
  const { as, args } = operatorOption(argv);
  actingAs = as;
  const [command, ...rest] = args;
  switch (command) {
    case 'users': {
      const { users } = (await call('GET', '/api/ops/users')) as OpsUsersResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(users, null, 2));
      else if (users.length === 0) console.log('No accounts yet.');
      else for (const u of users) console.log(`${u.accountKey}  ${u.email ?? '(no email)'}  ${u.displayName ?? ''}  ${u.createdAt}`);
      return;
    }
    case 'grant-admin': {
      const email = requireEmail(rest[0]);
      await call('POST', '/api/ops/grant-admin', { email });
      console.log(`${email} now has the admin:muntly scope.`);
      return;
    }
    case 'dev-token': {
      const email = requireEmail(rest[0]);
      if (!settings().localIdp) throw new CliError('dev-token is refused when AUTH0_DOMAIN is set: log in through Auth0 instead.');
      const { accessToken } = (await call('POST', '/api/ops/dev-token', { email })) as DevTokenResponse;
      console.log(`Access token for ${email} (valid for one hour):`);
      console.log(accessToken); // the last line of output, for scripts
      return;
    }
    case 'enable-verification':
    case 'verify': {
      const email = requireEmail(rest[0]);
      const kind = rest[1];
      if (!kind) throw new CliError('This command needs a kind: address, bank, business, id or mobile.');
      const route = command === 'verify' ? '/api/ops/verification/verify' : '/api/ops/verification/enable';
      const { phase } = (await call('POST', route, { email, kind })) as EnableVerificationResponse | VerifyResponse;
      console.log(`${email}: ${kind} verification is now ${phase}.`);
      return;
    }
    case 'verification-requests': {
      const { requests } = (await call('GET', `/api/ops/verification-requests${rest.includes('--all') ? '?all=true' : ''}`)) as VerificationRequestsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(requests, null, 2));
      else if (requests.length === 0) console.log('No verification requests waiting.');
      else
        for (const r of requests) {
          const todo = r.phase === 'not_enabled' ? `waiting: npm run ops -- enable-verification ${r.email ?? '<email>'} ${r.kind}` : r.phase;
          console.log(`${r.requestedAt}  ${r.accountKey}  ${r.email ?? '(no email)'}  ${r.kind.padEnd(8)}  ${todo}`);
        }
      return;
    }
    case 'freeze':
    case 'unfreeze': {
      const [who] = rest;
      const at = rest.indexOf('--reason');
      const reason =
        at >= 0
          ? rest
              .slice(at + 1)
              .join(' ')
              .trim()
          : '';
      if (!who || who.startsWith('--') || !reason) throw new CliError(`Usage: ${command} <email|accountKey> --reason <why, e.g. "identity checked by phone, ticket 123">`);
      const accountKey = await accountKeyOf(who);
      const state = (await call('POST', `/api/ops/accounts/${encodeURIComponent(accountKey)}/${command}`, { reason })) as OpsFreezeResponse;
      const name = who.includes('@') ? `${who} (${state.accountKey})` : state.accountKey;
      console.log(`${name}: sends ${state.frozen ? `frozen${state.frozenByOperator ? ' by an operator' : ''} since ${state.frozenAt}` : 'unfrozen'}.`);
      return;
    }
    case 'verification-documents': {
      const { documents } = (await call('GET', '/api/ops/verification-documents')) as VerificationDocumentsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(documents, null, 2));
      else if (documents.length === 0) console.log('No documents waiting for a check.');
      else for (const d of documents) console.log(`${d.submittedAt ?? ''}  ${d.accountKey}  ${d.email ?? '(no email)'}  ${d.kind.padEnd(8)}  verify or reject-verification`);
      return;
    }
    case 'reject-verification': {
      const [email, kind, reason] = rest;
      if (!email || !kind || !reason) throw new CliError('Usage: reject-verification <email> <kind> <unreadable|expired|mismatch|incomplete>');
      const result = (await call('POST', '/api/ops/verification/reject', { email, kind, reason })) as VerificationRejectResponse;
      console.log(`${email}: ${kind} verification sent back to ${result.phase} (${result.reason}); the customer was told why.`);
      return;
    }
    case 'queues': {
      const queues = (await call('GET', '/api/ops/queues')) as OpsQueues;
      if (rest.includes('--json')) console.log(JSON.stringify(queues, null, 2));
      else
        console.log(
          `Verification requests: ${queues.verificationRequests}\nDocuments to check: ${queues.documents}\nUnmatched bank payments: ${queues.unmatchedPayments}\nPayouts awaiting approval: ${queues.payoutsAwaitingApproval}`,
        );
      return;
    }
    case 'orders': {
      const filters = { status: option(rest, '--status'), type: option(rest, '--type'), from: option(rest, '--since'), to: option(rest, '--until') };
      const valued = new Set(['--status', '--type', '--since', '--until']);
      const q = rest.filter((arg, i) => !arg.startsWith('--') && !valued.has(rest[i - 1] ?? '')).join(' ');
      const query = new URLSearchParams(Object.entries({ ...filters, q: q || undefined }).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const { orders } = (await call('GET', `/api/ops/orders?${query}`)) as OpsOrdersResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(orders, null, 2));
      else if (orders.length === 0) console.log('No orders match.');
      else for (const o of orders) console.log(orderLine(o));
      return;
    }
    case 'order': {
      const [reference] = rest.filter((arg) => arg !== '--json');
      if (!reference) throw new CliError('Usage: order <reference>');
      const detail = (await call('GET', `/api/ops/orders/${encodeURIComponent(reference)}`)) as OpsOrderResponse;
      if (rest.includes('--json')) {
        console.log(JSON.stringify(detail, null, 2));
        return;
      }
      console.log(orderLine(detail.order));
      for (const e of detail.history) {
        const what = e.kind === 'audit' ? `${e.action} by ${e.actor}` : e.kind;
        const money = e.amount ? `  ${e.amount} ${e.currency ?? ''}` : '';
        console.log(`  ${e.at}  ${what}${e.status ? `  ${e.status}` : ''}${money}${e.detail ? `  (${e.detail})` : ''}`);
      }
      return;
    }
    case 'accounts': {
      const q = rest.filter((arg) => arg !== '--json').join(' ');
      if (!q) throw new CliError('Usage: accounts <email part | account key>');
      const { accounts } = (await call('GET', `/api/ops/accounts?${new URLSearchParams({ q })}`)) as OpsAccountsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(accounts, null, 2));
      else if (accounts.length === 0) console.log('No accounts match.');
      else for (const a of accounts) console.log(`${a.accountKey}  ${a.email ?? '(no email)'}  ${a.displayName ?? ''}  ${a.createdAt}`);
      return;
    }
    case 'account': {
      const [key] = rest.filter((arg) => arg !== '--json');
      if (!key) throw new CliError('Usage: account <accountKey>');
      const detail = (await call('GET', `/api/ops/accounts/${encodeURIComponent(key)}`)) as OpsAccountResponse;
      if (rest.includes('--json')) {
        console.log(JSON.stringify(detail, null, 2));
        return;
      }
      const { account } = detail;
      console.log(`${account.accountKey}  ${account.email ?? '(no email)'}  ${account.displayName ?? ''}  since ${account.createdAt}`);
      console.log(`Sends: ${detail.sendsFrozen === null ? 'freezing not available' : detail.sendsFrozen ? 'FROZEN' : 'not frozen'}`);
      console.log(
        `Balances (EUR ${detail.balances.totalEur} in all): ${
          detail.balances.balances
            .filter((b) => !/^0(\.0+)?$/.test(b.balance))
            .map((b) => `${b.balance} ${b.currency}`)
            .join(', ') || 'none'
        }`,
      );
      console.log(`Verifications: ${detail.verifications.map((v) => `${v.kind} ${v.phase}${v.rejection ? ` (rejected: ${v.rejection.reason})` : ''}`).join(', ')}`);
      for (const o of detail.orders) console.log(`  order ${orderLine(o)}`);
      for (const s of detail.sends) console.log(`  send  ${s.createdAt}  ${s.status.padEnd(17)}  ${s.amount} ${s.currency} → ${s.address}${s.internal ? ' (internal)' : ''}`);
      return;
    }
    case 'chain-deposit': {
      const [currency, address, amount, txid] = rest;
      if (!currency || !address || !amount) throw new CliError('Usage: chain-deposit <currency> <address> <amount> [txid]');
      const result = (await call('POST', '/api/ops/chain-deposit', { currency, address, amount, ...(txid ? { txid } : {}) })) as ChainDeposit;
      const target = result.orderReference ? `order ${result.orderReference} (processing)` : address;
      console.log(result.credited ? `Credited ${result.amount} ${currency.toUpperCase()} to ${target} (txid ${result.txid}).` : `Already credited (txid ${result.txid}).`);
      return;
    }
    case 'reconcile': {
      const { results } = (await call('POST', '/api/ops/chain/reconcile')) as ReconcileResponse;
      if (results.length === 0) console.log('No currency has a node (CHAIN_RPC_URL_<CUR>).');
      for (const r of results) {
        console.log(`${r.currency}: on chain ${r.onChain ?? `(node cannot scan; tracked ${r.tracked})`}, ledger ${r.expected}, difference ${r.difference}${r.ok ? '' : '  ← an alert is raised'}`);
      }
      if (results.some((r) => !r.ok)) process.exitCode = 1;
      return;
    }
    case 'chain-unmatched': {
      const { outputs } = (await call('GET', '/api/ops/chain/unmatched')) as ChainUnmatchedResponse;
      if (outputs.length === 0) console.log('The unmatched chain queue is empty.');
      for (const o of outputs) console.log(`${o.currency}  ${o.txid} ${o.vout}  ${o.amount}  ${o.unmatchedReason ?? ''}  → ${o.address}  (height ${o.height})${o.sender ? `  from ${o.sender}` : ''}`);
      return;
    }
    case 'chain-assign': {
      const [currency, txid, vout, email] = rest;
      if (!currency || !txid || !vout || !email) throw new CliError('Usage: chain-assign <currency> <txid> <vout> <email>');
      const { output } = (await call('POST', '/api/ops/chain/unmatched/assign', { currency: currency.toUpperCase(), txid, vout: Number(vout), email })) as { output: ChainOutput };
      console.log(`Credited ${output.amount} ${output.currency} to ${email} (${output.txid}:${output.vout}).`);
      return;
    }
    case 'chain-return': {
      const [currency, txid, vout, destination] = rest;
      if (!currency || !txid || !vout || !destination) throw new CliError('Usage: chain-return <currency> <txid> <vout> <address>');
      const { payout } = (await call('POST', '/api/ops/chain/unmatched/return', { currency: currency.toUpperCase(), txid, vout: Number(vout), destination })) as ChainReturnResponse;
      console.log(`Payout ${payout.id} sends ${payout.amount} ${currency.toUpperCase()} (network fee ${payout.networkFee}) to ${payout.destination}: ${payout.status}.`);
      return;
    }
    case 'chain-alerts': {
      if (rest[0] === 'resolve') {
        if (!rest[1]) throw new CliError('Usage: chain-alerts resolve <id>');
        await call('POST', `/api/ops/chain/alerts/${rest[1]}/resolve`);
        console.log(`Alert ${rest[1]} is resolved.`);
        return;
      }
      const { alerts } = (await call('GET', '/api/ops/chain/alerts')) as ChainAlertsResponse;
      if (alerts.length === 0) console.log('No open chain alerts.');
      for (const a of alerts) console.log(`${a.id}  ${a.createdAt}  ${a.currency}  ${a.kind}  ${JSON.stringify(a.detail)}`);
      return;
    }
    case 'payment-received': {
      const fromBusinessAccount = rest.includes('--business');
      const ibanAt = rest.indexOf('--iban');
      const payerIban = ibanAt >= 0 ? rest[ibanAt + 1] : undefined;
      if (ibanAt >= 0 && !payerIban) throw new CliError('--iban needs the payer’s IBAN.');
      const [reason, amount, txid] = rest.filter((arg, i) => arg !== '--business' && (ibanAt < 0 || (i !== ibanAt && i !== ibanAt + 1)));
      if (!reason || !amount) throw new CliError('Usage: payment-received <shortReference | "DEPOSIT<accountKey> [CUR]"> <amountEUR> [txid] [--business] [--iban <payer IBAN>]');
      const result = (await call('POST', '/api/ops/payment-received', {
        reason,
        amount,
        ...(txid ? { txid } : {}),
        ...(fromBusinessAccount ? { fromBusinessAccount } : {}),
        ...(payerIban ? { payerIban } : {}),
      })) as PaymentReceived;
      const held = result.businessHold ? ' It waits until a business behind it is verified.' : '';
      console.log(result.credited ? `Payment of EUR ${amount} received for ${result.type} order ${result.reference}: processing.${held}` : `Already received (order ${result.reference}).`);
      return;
    }
    case 'business-payment': {
      const [reference] = rest;
      if (!reference) throw new CliError('Usage: business-payment <reference>');
      const result = (await call('POST', '/api/ops/orders/business-payment', { reference })) as BusinessPayment;
      console.log(result.businessHold ? `Order ${result.reference} is held until its business is verified.` : `Order ${result.reference}: paid from a verified business, it goes on.`);
      return;
    }
    case 'order-review': {
      const [reference, decision] = rest;
      if (!reference || (decision !== 'convert' && decision !== 'refund')) throw new CliError('Usage: order-review <reference> convert|refund');
      const result = (await call('POST', '/api/ops/orders/review', { reference, decision })) as OrderReview;
      console.log(decision === 'convert' ? `Order ${result.reference} is released: the worker converts it next.` : `Order ${result.reference} is refunded to its payer.`);
      return;
    }
    case 'ledger:verify': {
      const { ok, checks, owedToUsers } = (await call('GET', '/api/ops/ledger/verify')) as LedgerVerifyResponse;
      for (const check of checks) {
        console.log(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}`);
        for (const problem of check.problems.slice(0, 20)) console.log(`        ${problem}`);
      }
      if (owedToUsers.length) console.log(`Users hold: ${owedToUsers.map((o) => `${o.total} ${o.currency}`).join(', ')}`);
      if (!ok) throw new CliError('The ledger is inconsistent.', 1);
      return;
    }
    case 'audit': {
      const filters = { action: option(rest, '--action'), actor: option(rest, '--actor'), target: option(rest, '--target'), from: option(rest, '--since'), to: option(rest, '--until') };
      const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined));
      if (rest.includes('--csv')) {
        console.write((await call('GET', `/api/ops/audit.csv?${query}`, undefined, { text: true })) as string);
        return;
      }
      const limit = option(rest, '--limit');
      const cursor = option(rest, '--cursor');
      if (limit) query.set('limit', limit);
      if (cursor) query.set('cursor', cursor);
      const { entries, nextCursor } = (await call('GET', `/api/ops/audit?${query}`)) as AuditListResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(entries, null, 2));
      else if (entries.length === 0) console.log('No audit rows match.');
      else {
        const state = (value: unknown) => (value === null ? '–' : JSON.stringify(value));
        for (const e of entries) console.log(`#${e.id}  ${e.at}  ${e.actor}  ${e.action}  ${e.target ?? '–'}  ${state(e.before)} → ${state(e.after)}`);
        if (nextCursor) console.log(`(older rows: add --cursor ${nextCursor})`);
      }
      return;
    }
    case 'audit:verify': {
      const result = (await call('GET', '/api/ops/audit/verify')) as AuditVerifyResponse;
      if (result.broken) throw new CliError(`BROKEN at row #${result.broken.id} (${result.broken.reason}): ${result.broken.message} ${result.rows} row(s) before it hold.`, 1);
      console.log(result.rows === 0 ? 'The audit trail is empty.' : `The audit trail holds: ${result.rows} row(s), the last #${result.lastId} with hash ${result.lastHash}.`);
      return;
    }
    case 'liabilities:publish': {
      const published = (await call('POST', '/api/ops/liabilities/publish')) as PublishResponse;
      console.log(`Published snapshot ${published.snapshotId} of ${published.takenAt}: ${published.file}`);
      if (published.currencies.length === 0) console.log('  Nobody is owed anything.');
      for (const c of published.currencies) {
        console.log(`  ${c.currency.padEnd(5)} owed ${c.total}  held ${c.held ?? '(not read)'}  ${c.leafCount} leaves  root ${c.rootHash}`);
      }
      if (published.digest) console.log(`  digest ${published.digest} (what npm run signer -- sign-reserves ${published.snapshotId} signs)`);
      return;
    }
    case 'retention': {
      const run = (await call('POST', '/api/ops/retention')) as RetentionRun;
      console.log(`Deleted the identity data of ${run.identityDataDeleted} verification(s) and ${run.messagesDeleted} support message(s).`);
      return;
    }
    case 'backup': {
      // The embedded database, consistent while the server runs (PostgreSQL: pg_basebackup, docs/backups.md).
      const { response, payload } = await callWithResponse('POST', '/api/ops/backup', undefined, { binary: true });
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'muntly-pglite.tar.gz';
      const file = option(rest, '--out') ?? name;
      writeFile(file, payload as Buffer);
      console.log(`${file}: ${(payload as Buffer).length} bytes. Restore it with the server stopped: npm run ops -- restore ${file}`);
      return;
    }
    case 'restore': {
      const [file] = rest;
      if (!file) throw new CliError('Usage: restore <backup file> (with the server stopped)');
      const config = settings();
      if (config.DATABASE_URL) throw new CliError('DATABASE_URL is set: restore PostgreSQL with its own tools (docs/backups.md).');
      const running = await fetch(new URL('/api/health', config.opsUrl)).then(
        () => true,
        () => false,
      );
      if (running) throw new CliError(`A server answers at ${config.opsUrl}: stop it first (PGlite belongs to one process).`);
      const { movedAside } = await restorePglite(config.DATA_DIR, new Blob([fs.readFileSync(file)]));
      console.log(`Restored ${file} into ${config.DATA_DIR}.${movedAside ? ` The data it replaced is in ${movedAside}.` : ''} Start the server, then run ledger:verify and audit:verify.`);
      return;
    }
    case 'outbox': {
      const toIndex = rest.indexOf('--to');
      const to = toIndex >= 0 ? rest[toIndex + 1] : undefined;
      if (toIndex >= 0 && !to) throw new CliError('--to needs a recipient.');
      const { messages } = (await call('GET', `/api/ops/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`)) as OutboxResponse;
      if (rest.includes('--json'))
        console.log(
          JSON.stringify(
            messages.map(({ channel, to, subject, body }) => ({ channel, to, subject, body })),
            null,
            2,
          ),
        );
      else if (messages.length === 0) console.log('The outbox is empty.');
      else for (const m of messages) console.log(`[${m.createdAt}] ${m.channel} → ${m.to}\n  ${m.subject}\n  ${m.body.replace(/\n/g, '\n  ')}\n`);
      return;
    }
    case 'faucet': {
      const [action, amount] = rest;
      if (action === 'fund' && !amount) throw new CliError('Usage: faucet fund <eur>');
      if (!action || !['status', 'pause', 'resume', 'fund'].includes(action)) throw new CliError('Usage: faucet status|pause|resume|fund <eur>');
      const state = (await (action === 'status'
        ? call('GET', '/api/ops/faucet')
        : action === 'fund'
          ? call('POST', '/api/ops/faucet/fund', { eur: amount })
          : call('POST', `/api/ops/faucet/${action}`))) as FaucetStatus;
      const round = state.round ? `round ${state.round.id} ${state.round.state}` : 'no round yet';
      console.log(`Faucet ${state.paused ? 'paused (GAME OVER after the current round)' : 'running'}, budget ${state.budgetEur} EUR, ${round}.`);
      return;
    }
    case 'payouts': {
      const [status, rail] = [option(rest, '--status'), option(rest, '--rail')];
      const query = new URLSearchParams({ ...(status ? { status } : {}), ...(rail ? { rail } : {}), limit: '500' });
      const { payouts } = (await call('GET', `/api/ops/payouts?${query}`)) as PayoutsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(payouts, null, 2));
      else if (payouts.length === 0) console.log('No payouts.');
      else for (const p of payouts) console.log(payoutLine(p));
      return;
    }
    case 'payout-result': {
      const [id, status, ...what] = rest;
      const detail = what.join(' ');
      if (!id || (status !== 'completed' && status !== 'failed') || !detail) throw new CliError('Usage: payout-result <id> completed <txid> | payout-result <id> failed <reason>');
      const { payout, booked } = (await call('POST', `/api/ops/payouts/${id}/result`, status === 'completed' ? { status, txid: detail } : { status, reason: detail })) as PayoutResultResponse;
      console.log(booked ? `Payout ${id} (${payout.amount} ${payout.currency}) is now ${payout.status}.` : `Payout ${id} was already ${payout.status} with this result.`);
      return;
    }
    case 'import-statement': {
      const [file] = rest.filter((arg) => arg !== '--json');
      if (!file) throw new CliError('Usage: import-statement <file>');
      if (!fs.existsSync(file)) throw new CliError(`No file ${file}.`);
      // The bytes as the bank wrote them: the server reads the encoding the file declares.
      const result = (await call('POST', '/api/ops/bank/statements', undefined, { xml: fs.readFileSync(file) })) as ImportStatementResponse;
      if (rest.includes('--json')) {
        console.log(JSON.stringify(result, null, 2));
        return;
      }
      for (const line of result.lines) {
        const what = line.reference ?? line.paymentId ?? '';
        console.log(`${line.outcome.padEnd(16)}  ${line.direction.padEnd(6)}  ${line.amount} ${line.currency}  ${line.entryRef}  ${what}${line.reason ? `  (${line.reason})` : ''}`);
      }
      for (const other of result.otherAccounts) {
        console.log(
          `Skipped: statement ${other.statementId ?? '(no id)'} of another account, ${other.iban ?? '(no IBAN)'}, ${other.payments} payment${other.payments === 1 ? '' : 's'} (not BANK_IBAN).`,
        );
      }
      const { counts } = result;
      console.log(
        `${result.version}: ${counts.booked} booked, ${counts.unmatched} unmatched (npm run ops -- unmatched), ${counts.duplicate} already imported, ${counts.payout_completed} payouts completed, ${counts.payout_returned ? `${counts.payout_returned} payouts returned (npm run ops -- returns), ` : ''}${counts.skipped} skipped, ${counts.ignored} ignored.`,
      );
      return;
    }
    case 'unmatched': {
      const status = rest.includes('--status') ? rest[rest.indexOf('--status') + 1] : 'open';
      const { payments } = (await call('GET', `/api/ops/bank/unmatched?${new URLSearchParams({ status: status ?? 'open', limit: '500' })}`)) as BankPaymentsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(payments, null, 2));
      else if (payments.length === 0) console.log(status === 'open' ? 'No unmatched bank payments.' : 'No bank payments.');
      else
        for (const p of payments) {
          const candidates = p.candidates.length ? `: ${p.candidates.join(' | ')}` : '';
          const state = p.status === 'open' ? `open (${p.unmatchedReason ?? '?'}${candidates})` : (p.resolution ?? `${p.status} ${p.orderReference ?? ''}`);
          // A return is never refunded to its IBAN: say so where the operator would reach for refund-payment.
          const returned = p.returned ? `  RETURN ${p.returned.reason ?? '(no reason)'}: not refundable to this IBAN` : '';
          console.log(`${p.id}  ${p.bookingDate ?? ''}  ${p.amount} ${p.currency}  ${p.payerName ?? '(no name)'}  ${p.payerIban ?? '(no IBAN)'}  "${p.remittance}"  ${state}${returned}`);
        }
      return;
    }
    case 'returns': {
      const { returns } = (await call('GET', '/api/ops/bank/returns')) as PayoutReturnsAwaitingResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(returns, null, 2));
      else if (returns.length === 0) console.log('No returned payout waits for a new IBAN.');
      else
        for (const r of returns) {
          const who = r.anonymous ? `anonymous, link ${r.linkExpiresAt ? `until ${r.linkExpiresAt}` : 'none (return-link)'}` : 'account holder (order page)';
          console.log(`${r.id}  ${r.returnedAt}  ${r.amount} EUR  order ${r.orderReference}  ${r.reason ?? '(no reason)'}${r.reasonInfo ? ` "${r.reasonInfo}"` : ''}  ${who}`);
        }
      return;
    }
    case 'return-link': {
      const [id] = rest;
      if (!id) throw new CliError('Usage: return-link <id> (from npm run ops -- returns)');
      const { orderReference } = (await call('POST', `/api/ops/bank/returns/${id}/link`)) as { orderReference: string };
      console.log(`A new link for order ${orderReference} is emailed; the old one no longer works.`);
      return;
    }
    case 'assign-payment': {
      const [id, ...target] = rest;
      if (!id || target.length === 0) throw new CliError('Usage: assign-payment <id> <order reference | DEPOSIT<accountKey> [CUR]>');
      const { order } = (await call('POST', `/api/ops/bank/unmatched/${id}/assign`, { target: target.join(' ') })) as AssignPaymentResponse;
      console.log(`Payment ${id} assigned to ${order.type} order ${order.reference}: ${order.status}.`);
      return;
    }
    case 'refund-payment': {
      const [id] = rest;
      if (!id) throw new CliError('Usage: refund-payment <id>');
      const { payout } = (await call('POST', `/api/ops/bank/unmatched/${id}/refund`)) as RefundPaymentResponse;
      console.log(`Payment ${id}: ${payout.amount} ${payout.currency} go back to ${payout.destination} (payout ${payout.id}, in the next payouts file).`);
      return;
    }
    case 'export-payouts': {
      const out = rest.includes('--out') ? rest[rest.indexOf('--out') + 1] : undefined;
      if (rest.includes('--out') && !out) throw new CliError('--out needs a file name.');
      const result = (await call('POST', '/api/ops/bank/payouts-export')) as ExportPayoutsResponse;
      for (const s of result.skipped) console.log(`Left out: payout ${s.payoutId} (${s.reason}); report it with payout-result once paid another way.`);
      if (!result.export || !result.xml) {
        console.log('No payouts are due.');
        return;
      }
      const file = out ?? `${result.export.messageId}.xml`;
      writeFile(file, result.xml);
      console.log(`${file}: ${payoutsCount(result.export.payouts)}, EUR ${result.export.total} (file ${result.export.id}). Upload it to the bank once.`);
      return;
    }
    case 'bank-exports': {
      const { exports } = (await call('GET', '/api/ops/bank/exports?limit=500')) as BankExportsResponse;
      if (rest.includes('--json')) console.log(JSON.stringify(exports, null, 2));
      else if (exports.length === 0) console.log('No payouts files yet.');
      else for (const e of exports) console.log(`${e.id}  ${e.createdAt}  ${e.messageId}  ${payoutsCount(e.payouts)}  EUR ${e.total}  by ${e.createdBy}`);
      return;
    }
    case 'bank-export': {
      const [id] = rest;
      const out = rest.includes('--out') ? rest[rest.indexOf('--out') + 1] : undefined;
      if (!id || id === '--out' || (rest.includes('--out') && !out)) throw new CliError('Usage: bank-export <id> [--out <file>]');
      const { response, payload } = await callWithResponse('GET', `/api/ops/bank/exports/${id}`, undefined, { text: true });
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${id}.xml`;
      const file = out ?? name;
      writeFile(file, String(payload));
      console.log(`${file} written.`);
      return;
    }
    case 'payout-approve': {
      const [id] = rest;
      if (!id) throw new CliError('Usage: payout-approve <id>');
      const { payout, released } = (await call('POST', `/api/ops/payouts/${id}/approve`)) as PayoutApproveResponse;
      console.log(
        released
          ? `Payout ${id} (${payout.amount} ${payout.currency}) approved by a second operator: it is now ${payout.status}.`
          : `Payout ${id} (${payout.amount} ${payout.currency}) reviewed: it waits for the approval of another operator.`,
      );
      return;
    }
    case 'payout-reject': {
      const [id, ...why] = rest;
      const reason = why.join(' ');
      if (!id || !reason) throw new CliError('Usage: payout-reject <id> <reason>');
      const { payout } = (await call('POST', `/api/ops/payouts/${id}/reject`, { reason })) as PayoutRejectResponse;
      console.log(`Payout ${id} (${payout.amount} ${payout.currency}) rejected: it is now ${payout.status} and its money went back.`);
      return;
    }
    default:
      console.log(USAGE);
      if (command && command !== 'help' && command !== '--help') throw new CliError(`Unknown command: ${command}`);
  }
}

if (require.main === module) {
  run(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof CliError ? error.message : error);
    process.exit(error instanceof CliError ? error.exitCode : 1);
  });
}
