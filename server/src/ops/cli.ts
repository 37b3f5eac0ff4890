import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { auditListResponse, auditVerifyResponse } from '#domain/contracts/audit';
import { authConfigSchema } from '#domain/contracts/auth';
import {
  assignPaymentResponse,
  bankExportFileResponse,
  bankExportsResponse,
  bankPaymentsResponse,
  exportPayoutsResponse,
  importStatementResponse,
  payoutReturnLinkResponse,
  payoutReturnsAwaitingResponse,
  refundPaymentResponse,
} from '#domain/contracts/bank';
import {
  chainAlertResolveResponse,
  chainAlertsResponse,
  chainAssignResponse,
  chainReturnResponse,
  chainUnmatchedResponse,
  reconcileResponse,
} from '#domain/contracts/chain';
import {
  opsAccountResponse,
  opsAccountsResponse,
  opsOrderResponse,
  opsOrdersResponse,
  opsQueuesResponse,
  verificationDocumentsResponse,
  verificationRejectResponse,
} from '#domain/contracts/console';
import { faucetStatusSchema } from '#domain/contracts/faucet';
import { publishResponse } from '#domain/contracts/liabilities';
import {
  businessPaymentResponse,
  chainDepositResponse,
  devTokenResponse,
  enableVerificationResponse,
  grantAdminResponse,
  ledgerVerifyResponse,
  opsUsersResponse,
  orderReviewResponse,
  outboxResponse,
  paymentReceivedResponse,
  retentionResponse,
  verificationRequestsResponse,
  verifyResponse,
} from '#domain/contracts/ops';
import {
  payoutApproveResponse,
  payoutRejectResponse,
  payoutResultResponse,
  payoutsResponse,
} from '#domain/contracts/payouts';
import { opsFreezeResponse } from '#domain/contracts/protection';
import { operatorKey } from '#domain/operators';
import { loadConfig, type Config } from '../config';
import { restorePglite } from '../db/client';
import { KEYS_FILE, mintAccessToken, readIdpKeys } from '../dev/keys';
import { terminal } from './terminal';
import type { OpsOrderSummary } from '#domain/contracts/console';
import type { Payout } from '#domain/contracts/payouts';
import type { ErrorBody } from '#domain/errors';

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
    if (actingAs)
      throw new CliError('--as (OPS_AS) is for local mode: with OPS_TOKEN, the operator is the token’s subject.');
    return { token: config.OPS_TOKEN, signedHere: false };
  }
  if (!config.localIdp)
    throw new CliError('Set OPS_TOKEN to an access token with the scopes use:muntly and admin:muntly.');
  if (!fs.existsSync(path.join(config.DATA_DIR, KEYS_FILE))) {
    throw new CliError(
      `No local identity provider key in ${config.DATA_DIR}: start the server first (npm start), or give this command the server's DATA_DIR (.env).`,
    );
  }
  const server = checked(
    authConfigSchema,
    '/api/auth/config',
    (await request(config, 'GET', '/api/auth/config')).payload,
  );
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
        ...(options.xml !== undefined
          ? { 'content-type': 'application/xml' }
          : options.body
            ? { 'content-type': 'application/json' }
            : {}),
      },
      body: options.xml
        ? new Blob([new Uint8Array(options.xml)])
        : options.body
          ? JSON.stringify(options.body)
          : undefined,
    });
  } catch {
    throw new CliError(
      `Cannot reach the Muntly server at ${config.opsUrl}: is it running (npm start), and on this PORT (or OPS_URL)? Both read .env.`,
    );
  }
  if (options.text && response.ok) return { response, payload: await response.text() };
  if (options.binary && response.ok) return { response, payload: Buffer.from(await response.arrayBuffer()) };
  return { response, payload: await response.json().catch(() => ({})) };
}

/** Tokens the server refuses because it does not know the key they were signed with. */
const FOREIGN_KEY = new Set(['token_unknown_key', 'token_invalid_signature']);

async function call(
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  options: { text?: boolean; xml?: Uint8Array } = {},
): Promise<unknown> {
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
    throw new CliError(
      `The server at ${config.opsUrl} does not know the signing key in ${config.DATA_DIR}: give this command the server's DATA_DIR (.env).`,
    );
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
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CliError(`${file} exists already: choose another name with --out.`);
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
  const { users } = await asker(opsUsersResponse)('GET', `/api/ops/users?email=${encodeURIComponent(who)}`);
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

/** What a command asks the server, its answer checked against the command's contract. */
type Ask<T> = (
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  options?: { text?: boolean; xml?: Uint8Array },
) => Promise<T>;

/**
 * One command of the table: its name, its arguments and what it does (the usage is written from
 * these), the contract in domain/contracts its answer is checked against (null: it asks no JSON
 * of the server), and its handler, which prints.
 */
type Command<C extends z.ZodType | null = z.ZodType | null> = {
  name: string;
  args?: string;
  about: string;
  contract: C;
  run(rest: string[], ask: Ask<C extends z.ZodType ? z.output<C> : never>): Promise<void>;
};

/** A table row, its handler typed by its contract. */
const command = <C extends z.ZodType | null>(spec: Command<C>): Command => spec as unknown as Command;

/** The answer, if the contract says it is one; anything else is the server's fault, said plainly. */
function checked<C extends z.ZodType>(contract: C, route: string, payload: unknown): z.output<C> {
  const result = contract.safeParse(payload);
  if (!result.success)
    throw new CliError(
      `The server's answer to ${route} is not what its contract says (a server of another version?):\n${z.prettifyError(result.error)}`,
    );
  return result.data;
}

const asker =
  <C extends z.ZodType>(contract: C): Ask<z.output<C>> =>
  async (method, route, body, options) =>
    checked(contract, route, await call(method, route, body, options));

async function verification(
  command: 'enable-verification' | 'verify',
  rest: string[],
  ask: Ask<z.output<typeof enableVerificationResponse>>,
): Promise<void> {
  const email = requireEmail(rest[0]);
  const kind = rest[1];
  if (!kind) throw new CliError('This command needs a kind: address, bank, business, id or mobile.');
  const route = command === 'verify' ? '/api/ops/verification/verify' : '/api/ops/verification/enable';
  const { phase } = await ask('POST', route, { email, kind });
  console.log(`${email}: ${kind} verification is now ${phase}.`);
}

async function freezing(
  command: 'freeze' | 'unfreeze',
  rest: string[],
  ask: Ask<z.output<typeof opsFreezeResponse>>,
): Promise<void> {
  const [who] = rest;
  const at = rest.indexOf('--reason');
  const reason =
    at >= 0
      ? rest
          .slice(at + 1)
          .join(' ')
          .trim()
      : '';
  if (!who || who.startsWith('--') || !reason)
    throw new CliError(
      `Usage: ${command} <email|accountKey> --reason <why, e.g. "identity checked by phone, ticket 123">`,
    );
  const accountKey = await accountKeyOf(who);
  const state = await ask('POST', `/api/ops/accounts/${encodeURIComponent(accountKey)}/${command}`, { reason });
  const name = who.includes('@') ? `${who} (${state.accountKey})` : state.accountKey;
  console.log(
    `${name}: sends ${state.frozen ? `frozen${state.frozenByOperator ? ' by an operator' : ''} since ${state.frozenAt}` : 'unfrozen'}.`,
  );
}

/** Every command: `npm run ops -- <name> <args>`. */
export const COMMANDS: Command[] = [
  command({
    name: 'users',
    about: 'list every account',
    contract: opsUsersResponse,
    run: async (rest, ask) => {
      const { users } = await ask('GET', '/api/ops/users');
      if (rest.includes('--json')) console.log(JSON.stringify(users, null, 2));
      else if (users.length === 0) console.log('No accounts yet.');
      else
        for (const u of users)
          console.log(`${u.accountKey}  ${u.email ?? '(no email)'}  ${u.displayName ?? ''}  ${u.createdAt}`);
    },
  }),
  command({
    name: 'grant-admin',
    args: '<email>',
    about: 'give a local user the admin:muntly scope',
    contract: grantAdminResponse,
    run: async (rest, ask) => {
      const email = requireEmail(rest[0]);
      await ask('POST', '/api/ops/grant-admin', { email });
      console.log(`${email} now has the admin:muntly scope.`);
    },
  }),
  command({
    name: 'dev-token',
    args: '<email>',
    about: '(local only) print an access token for this email, creating the user if needed',
    contract: devTokenResponse,
    run: async (rest, ask) => {
      const email = requireEmail(rest[0]);
      if (!settings().localIdp)
        throw new CliError('dev-token is refused when AUTH0_DOMAIN is set: log in through Auth0 instead.');
      const { accessToken } = await ask('POST', '/api/ops/dev-token', { email });
      console.log(`Access token for ${email} (valid for one hour):`);
      console.log(accessToken); // the last line of output, for scripts
    },
  }),
  command({
    name: 'enable-verification',
    args: '<email> <kind>',
    about: 'enable a verification kind (address, bank, business, id, mobile) for a user',
    contract: enableVerificationResponse,
    run: (rest, ask) => verification('enable-verification', rest, ask),
  }),
  command({
    name: 'verification-requests',
    args: '[--all] [--json]',
    about:
      'verification kinds users asked to have enabled and still waiting,\noldest first (--all: also those enabled since)',
    contract: verificationRequestsResponse,
    run: async (rest, ask) => {
      const { requests } = await ask(
        'GET',
        `/api/ops/verification-requests${rest.includes('--all') ? '?all=true' : ''}`,
      );
      if (rest.includes('--json')) console.log(JSON.stringify(requests, null, 2));
      else if (requests.length === 0) console.log('No verification requests waiting.');
      else
        for (const r of requests) {
          const todo =
            r.phase === 'not_enabled'
              ? `waiting: npm run ops -- enable-verification ${r.email ?? '<email>'} ${r.kind}`
              : r.phase;
          console.log(`${r.requestedAt}  ${r.accountKey}  ${r.email ?? '(no email)'}  ${r.kind.padEnd(8)}  ${todo}`);
        }
    },
  }),
  command({
    name: 'verify',
    args: '<email> <kind>',
    about: 'mark a kind verified after checking a document by hand (e.g. id)',
    contract: verifyResponse,
    run: (rest, ask) => verification('verify', rest, ask),
  }),
  command({
    name: 'freeze',
    args: '<email|accountKey> --reason <text>',
    about:
      "freeze an account's sends at once: only an operator unfreezes them, and\nits payouts wait for approval; the reason is audited, never shown to the user",
    contract: opsFreezeResponse,
    run: (rest, ask) => freezing('freeze', rest, ask),
  }),
  command({
    name: 'unfreeze',
    args: '<email|accountKey> --reason <text>',
    about:
      "unfreeze an account's sends at once, skipping the user's cool-down (only\nafter they proved who they are); the reason is audited",
    contract: opsFreezeResponse,
    run: (rest, ask) => freezing('unfreeze', rest, ask),
  }),
  command({
    name: 'verification-documents',
    args: '[--json]',
    about: 'submissions waiting for a document to be checked by hand (the ID), oldest first',
    contract: verificationDocumentsResponse,
    run: async (rest, ask) => {
      const { documents } = await ask('GET', '/api/ops/verification-documents');
      if (rest.includes('--json')) console.log(JSON.stringify(documents, null, 2));
      else if (documents.length === 0) console.log('No documents waiting for a check.');
      else
        for (const d of documents)
          console.log(
            `${d.submittedAt ?? ''}  ${d.accountKey}  ${d.email ?? '(no email)'}  ${d.kind.padEnd(8)}  verify or reject-verification`,
          );
    },
  }),
  command({
    name: 'reject-verification',
    args: '<email> <kind> <unreadable|expired|mismatch|incomplete>',
    about:
      'send submitted details back to step 1; the customer reads the reason in\ntheir language (identity page and email)',
    contract: verificationRejectResponse,
    run: async (rest, ask) => {
      const [email, kind, reason] = rest;
      if (!email || !kind || !reason)
        throw new CliError('Usage: reject-verification <email> <kind> <unreadable|expired|mismatch|incomplete>');
      const result = await ask('POST', '/api/ops/verification/reject', { email, kind, reason });
      console.log(
        `${email}: ${kind} verification sent back to ${result.phase} (${result.reason}); the customer was told why.`,
      );
    },
  }),
  command({
    name: 'queues',
    args: '[--json]',
    about: 'how much waits: verification requests, documents, unmatched payments,\npayouts awaiting approval',
    contract: opsQueuesResponse,
    run: async (rest, ask) => {
      const queues = await ask('GET', '/api/ops/queues');
      if (rest.includes('--json')) console.log(JSON.stringify(queues, null, 2));
      else
        console.log(
          `Verification requests: ${queues.verificationRequests}\nDocuments to check: ${queues.documents}\nUnmatched bank payments: ${queues.unmatchedPayments}\nPayouts awaiting approval: ${queues.payoutsAwaitingApproval}`,
        );
    },
  }),
  command({
    name: 'orders',
    args: '[<reference | part of an email>] [--status <s>] [--type <t>] [--since <day>] [--until <day>] [--json]',
    about: 'orders, newest first',
    contract: opsOrdersResponse,
    run: async (rest, ask) => {
      const filters = {
        status: option(rest, '--status'),
        type: option(rest, '--type'),
        from: option(rest, '--since'),
        to: option(rest, '--until'),
      };
      const valued = new Set(['--status', '--type', '--since', '--until']);
      const q = rest.filter((arg, i) => !arg.startsWith('--') && !valued.has(rest[i - 1] ?? '')).join(' ');
      const query = new URLSearchParams(
        Object.entries({ ...filters, q: q || undefined }).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      );
      const { orders } = await ask('GET', `/api/ops/orders?${query}`);
      if (rest.includes('--json')) console.log(JSON.stringify(orders, null, 2));
      else if (orders.length === 0) console.log('No orders match.');
      else for (const o of orders) console.log(orderLine(o));
    },
  }),
  command({
    name: 'order',
    args: '<reference> [--json]',
    about: 'one order and its whole history (its times, payouts and audit rows)',
    contract: opsOrderResponse,
    run: async (rest, ask) => {
      const [reference] = rest.filter((arg) => arg !== '--json');
      if (!reference) throw new CliError('Usage: order <reference>');
      const detail = await ask('GET', `/api/ops/orders/${encodeURIComponent(reference)}`);
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
    },
  }),
  command({
    name: 'accounts',
    args: '<email part | account key> [--json]',
    about: 'accounts by email or account key',
    contract: opsAccountsResponse,
    run: async (rest, ask) => {
      const q = rest.filter((arg) => arg !== '--json').join(' ');
      if (!q) throw new CliError('Usage: accounts <email part | account key>');
      const { accounts } = await ask('GET', `/api/ops/accounts?${new URLSearchParams({ q })}`);
      if (rest.includes('--json')) console.log(JSON.stringify(accounts, null, 2));
      else if (accounts.length === 0) console.log('No accounts match.');
      else
        for (const a of accounts)
          console.log(`${a.accountKey}  ${a.email ?? '(no email)'}  ${a.displayName ?? ''}  ${a.createdAt}`);
    },
  }),
  command({
    name: 'account',
    args: '<accountKey> [--json]',
    about: 'one account: balances, verifications, recent orders and sends, audit rows',
    contract: opsAccountResponse,
    run: async (rest, ask) => {
      const [key] = rest.filter((arg) => arg !== '--json');
      if (!key) throw new CliError('Usage: account <accountKey>');
      const detail = await ask('GET', `/api/ops/accounts/${encodeURIComponent(key)}`);
      if (rest.includes('--json')) {
        console.log(JSON.stringify(detail, null, 2));
        return;
      }
      const { account } = detail;
      console.log(
        `${account.accountKey}  ${account.email ?? '(no email)'}  ${account.displayName ?? ''}  since ${account.createdAt}`,
      );
      console.log(
        `Sends: ${detail.sendsFrozen === null ? 'freezing not available' : detail.sendsFrozen ? 'FROZEN' : 'not frozen'}`,
      );
      console.log(
        `Balances (EUR ${detail.balances.totalEur} in all): ${
          detail.balances.balances
            .filter((b) => !/^0(\.0+)?$/.test(b.balance))
            .map((b) => `${b.balance} ${b.currency}`)
            .join(', ') || 'none'
        }`,
      );
      console.log(
        `Verifications: ${detail.verifications.map((v) => `${v.kind} ${v.phase}${v.rejection ? ` (rejected: ${v.rejection.reason})` : ''}`).join(', ')}`,
      );
      for (const o of detail.orders) console.log(`  order ${orderLine(o)}`);
      for (const s of detail.sends)
        console.log(
          `  send  ${s.createdAt}  ${s.status.padEnd(17)}  ${s.amount} ${s.currency} → ${s.address}${s.internal ? ' (internal)' : ''}`,
        );
    },
  }),
  command({
    name: 'ledger:verify',
    about: 'check every ledger invariant; exits 1 when one fails',
    contract: ledgerVerifyResponse,
    run: async (_, ask) => {
      const { ok, checks, owedToUsers } = await ask('GET', '/api/ops/ledger/verify');
      for (const check of checks) {
        console.log(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}`);
        for (const problem of check.problems.slice(0, 20)) console.log(`        ${problem}`);
      }
      if (owedToUsers.length)
        console.log(`Users hold: ${owedToUsers.map((o) => `${o.total} ${o.currency}`).join(', ')}`);
      if (!ok) throw new CliError('The ledger is inconsistent.', 1);
    },
  }),
  command({
    name: 'liabilities:publish',
    about:
      'take a snapshot of everything owed (one consistent read) and publish its\nproof of solvency: per currency the root of a Merkle sum tree (the total\nowed) and what the house held (every server replica also does this daily)',
    contract: publishResponse,
    run: async (_, ask) => {
      const published = await ask('POST', '/api/ops/liabilities/publish');
      console.log(`Published snapshot ${published.snapshotId} of ${published.takenAt}: ${published.file}`);
      if (published.currencies.length === 0) console.log('  Nobody is owed anything.');
      for (const c of published.currencies) {
        console.log(
          `  ${c.currency.padEnd(5)} owed ${c.total}  held ${c.held ?? '(not read)'}  ${c.leafCount} leaves  root ${c.rootHash}`,
        );
      }
      if (published.digest)
        console.log(
          `  digest ${published.digest} (what npm run signer -- sign-reserves ${published.snapshotId} signs)`,
        );
    },
  }),
  command({
    name: 'retention',
    about:
      'delete identity data and support messages whose retention period has\nended (every server replica also does this hourly)',
    contract: retentionResponse,
    run: async (_, ask) => {
      const run = await ask('POST', '/api/ops/retention');
      console.log(
        `Deleted the identity data of ${run.identityDataDeleted} verification(s) and ${run.messagesDeleted} support message(s).`,
      );
    },
  }),
  command({
    name: 'backup',
    args: '[--out <file>]',
    about:
      'a consistent copy of the embedded database (PGlite), taken while the server runs;\ndefault file: the name the server gives it',
    contract: null,
    run: async (rest) => {
      // The embedded database, consistent while the server runs (PostgreSQL: pg_basebackup, docs/backups.md).
      const { response, payload } = await callWithResponse('POST', '/api/ops/backup', undefined, { binary: true });
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'muntly-pglite.tar.gz';
      const file = option(rest, '--out') ?? name;
      writeFile(file, payload as Buffer);
      console.log(
        `${file}: ${(payload as Buffer).length} bytes. Restore it with the server stopped: npm run ops -- restore ${file}`,
      );
    },
  }),
  command({
    name: 'restore',
    args: '<file>',
    about:
      'put a backup (PGlite) into DATA_DIR, with the server stopped; the data it replaces\nis moved aside, never deleted',
    contract: null,
    run: async (rest) => {
      const [file] = rest;
      if (!file) throw new CliError('Usage: restore <backup file> (with the server stopped)');
      const config = settings();
      if (config.DATABASE_URL)
        throw new CliError('DATABASE_URL is set: restore PostgreSQL with its own tools (docs/backups.md).');
      const running = await fetch(new URL('/api/health', config.opsUrl)).then(
        () => true,
        () => false,
      );
      if (running)
        throw new CliError(`A server answers at ${config.opsUrl}: stop it first (PGlite belongs to one process).`);
      const { movedAside } = await restorePglite(config.DATA_DIR, new Blob([fs.readFileSync(file)]));
      console.log(
        `Restored ${file} into ${config.DATA_DIR}.${movedAside ? ` The data it replaced is in ${movedAside}.` : ''} Start the server, then run ledger:verify and audit:verify.`,
      );
    },
  }),
  command({
    name: 'chain-deposit',
    args: '<currency> <address> <amount> [txid]',
    about:
      'simulate an incoming chain deposit to a wallet reception address\nor to the receiving address of a sell/swap order',
    contract: chainDepositResponse,
    run: async (rest, ask) => {
      const [currency, address, amount, txid] = rest;
      if (!currency || !address || !amount)
        throw new CliError('Usage: chain-deposit <currency> <address> <amount> [txid]');
      const result = await ask('POST', '/api/ops/chain-deposit', {
        currency,
        address,
        amount,
        ...(txid ? { txid } : {}),
      });
      const target = result.orderReference ? `order ${result.orderReference} (processing)` : address;
      console.log(
        result.credited
          ? `Credited ${result.amount} ${currency.toUpperCase()} to ${target} (txid ${result.txid}).`
          : `Already credited (txid ${result.txid}).`,
      );
    },
  }),
  command({
    name: 'reconcile',
    about:
      "per currency with a node: the house's coins on chain (the node's count)\nagainst the ledger; exits 1 on a difference (which also raises an alert)",
    contract: reconcileResponse,
    run: async (_, ask) => {
      const { results } = await ask('POST', '/api/ops/chain/reconcile');
      if (results.length === 0) console.log('No currency has a node (CHAIN_RPC_URL_<CUR>).');
      for (const r of results) {
        console.log(
          `${r.currency}: on chain ${r.onChain ?? `(node cannot scan; tracked ${r.tracked})`}, ledger ${r.expected}, difference ${r.difference}${r.ok ? '' : '  ← an alert is raised'}`,
        );
      }
      if (results.some((r) => !r.ok)) process.exitCode = 1;
    },
  }),
  command({
    name: 'chain-unmatched',
    about: 'the unmatched chain queue: dust, coins at addresses that expected nothing',
    contract: chainUnmatchedResponse,
    run: async (_, ask) => {
      const { outputs } = await ask('GET', '/api/ops/chain/unmatched');
      if (outputs.length === 0) console.log('The unmatched chain queue is empty.');
      for (const o of outputs)
        console.log(
          `${o.currency}  ${o.txid} ${o.vout}  ${o.amount}  ${o.unmatchedReason ?? ''}  → ${o.address}  (height ${o.height})${o.sender ? `  from ${o.sender}` : ''}`,
        );
    },
  }),
  command({
    name: 'chain-assign',
    args: '<currency> <txid> <vout> <email>',
    about: 'credit an unmatched output to the wallet of the account with this email',
    contract: chainAssignResponse,
    run: async (rest, ask) => {
      const [currency, txid, vout, email] = rest;
      if (!currency || !txid || !vout || !email)
        throw new CliError('Usage: chain-assign <currency> <txid> <vout> <email>');
      const { output } = await ask('POST', '/api/ops/chain/unmatched/assign', {
        currency: currency.toUpperCase(),
        txid,
        vout: Number(vout),
        email,
      });
      console.log(`Credited ${output.amount} ${output.currency} to ${email} (${output.txid}:${output.vout}).`);
    },
  }),
  command({
    name: 'chain-return',
    args: '<currency> <txid> <vout> <address>',
    about:
      'send an unmatched output back, less the network fee, to the address its\nsender named (a payout; it may wait for a second operator)',
    contract: chainReturnResponse,
    run: async (rest, ask) => {
      const [currency, txid, vout, destination] = rest;
      if (!currency || !txid || !vout || !destination)
        throw new CliError('Usage: chain-return <currency> <txid> <vout> <address>');
      const { payout } = await ask('POST', '/api/ops/chain/unmatched/return', {
        currency: currency.toUpperCase(),
        txid,
        vout: Number(vout),
        destination,
      });
      console.log(
        `Payout ${payout.id} sends ${payout.amount} ${currency.toUpperCase()} (network fee ${payout.networkFee}) to ${payout.destination}: ${payout.status}.`,
      );
    },
  }),
  command({
    name: 'chain-alerts',
    args: '[resolve <id>]',
    about: 'open chain alerts (a deposit booked back after a reorg, a reconciliation\ndifference), or mark one handled',
    contract: chainAlertsResponse,
    run: async (rest, ask) => {
      if (rest[0] === 'resolve') {
        if (!rest[1]) throw new CliError('Usage: chain-alerts resolve <id>');
        await asker(chainAlertResolveResponse)('POST', `/api/ops/chain/alerts/${rest[1]}/resolve`);
        console.log(`Alert ${rest[1]} is resolved.`);
        return;
      }
      const { alerts } = await ask('GET', '/api/ops/chain/alerts');
      if (alerts.length === 0) console.log('No open chain alerts.');
      for (const a of alerts)
        console.log(`${a.id}  ${a.createdAt}  ${a.currency}  ${a.kind}  ${JSON.stringify(a.detail)}`);
    },
  }),
  command({
    name: 'payment-received',
    args: '<reason> <amountEUR> [txid] [--business] [--iban <payer IBAN>]',
    about:
      "simulate an incoming SEPA payment; reason = a buy order's short\nreference (ABCD-EFGH) or a deposit reference (DEPOSIT<key> [CUR]);\n--business: the payer is a business account (the buy waits for a\nverified business); --iban: the payer's IBAN (their week counts by it)",
    contract: paymentReceivedResponse,
    run: async (rest, ask) => {
      const fromBusinessAccount = rest.includes('--business');
      const ibanAt = rest.indexOf('--iban');
      const payerIban = ibanAt >= 0 ? rest[ibanAt + 1] : undefined;
      if (ibanAt >= 0 && !payerIban) throw new CliError('--iban needs the payer’s IBAN.');
      const [reason, amount, txid] = rest.filter(
        (arg, i) => arg !== '--business' && (ibanAt < 0 || (i !== ibanAt && i !== ibanAt + 1)),
      );
      if (!reason || !amount)
        throw new CliError(
          'Usage: payment-received <shortReference | "DEPOSIT<accountKey> [CUR]"> <amountEUR> [txid] [--business] [--iban <payer IBAN>]',
        );
      const result = await ask('POST', '/api/ops/payment-received', {
        reason,
        amount,
        ...(txid ? { txid } : {}),
        ...(fromBusinessAccount ? { fromBusinessAccount } : {}),
        ...(payerIban ? { payerIban } : {}),
      });
      const held = result.businessHold ? ' It waits until a business behind it is verified.' : '';
      console.log(
        result.credited
          ? `Payment of EUR ${amount} received for ${result.type} order ${result.reference}: processing.${held}`
          : `Already received (order ${result.reference}).`,
      );
    },
  }),
  command({
    name: 'business-payment',
    args: '<reference>',
    about:
      'the bank statement shows this buy was paid from a business account:\nit waits until a business behind it is verified',
    contract: businessPaymentResponse,
    run: async (rest, ask) => {
      const [reference] = rest;
      if (!reference) throw new CliError('Usage: business-payment <reference>');
      const result = await ask('POST', '/api/ops/orders/business-payment', { reference });
      console.log(
        result.businessHold
          ? `Order ${result.reference} is held until its business is verified.`
          : `Order ${result.reference}: paid from a verified business, it goes on.`,
      );
    },
  }),
  command({
    name: 'order-review',
    args: '<reference> convert|refund',
    about:
      "an anonymous order held because its payer's week passed the cap:\nconvert it anyway, or send the money back to the payer",
    contract: orderReviewResponse,
    run: async (rest, ask) => {
      const [reference, decision] = rest;
      if (!reference || (decision !== 'convert' && decision !== 'refund'))
        throw new CliError('Usage: order-review <reference> convert|refund');
      const result = await ask('POST', '/api/ops/orders/review', { reference, decision });
      console.log(
        decision === 'convert'
          ? `Order ${result.reference} is released: the worker converts it next.`
          : `Order ${result.reference} is refunded to its payer.`,
      );
    },
  }),
  command({
    name: 'outbox',
    args: '[--json] [--to <recipient>]',
    about: 'messages sent by email, SMS, post and bank transfer, newest first',
    contract: outboxResponse,
    run: async (rest, ask) => {
      const toIndex = rest.indexOf('--to');
      const to = toIndex >= 0 ? rest[toIndex + 1] : undefined;
      if (toIndex >= 0 && !to) throw new CliError('--to needs a recipient.');
      const { messages } = await ask('GET', `/api/ops/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`);
      if (rest.includes('--json'))
        console.log(
          JSON.stringify(
            messages.map(({ channel, to, subject, body }) => ({ channel, to, subject, body })),
            null,
            2,
          ),
        );
      else if (messages.length === 0) console.log('The outbox is empty.');
      else
        for (const m of messages)
          console.log(`[${m.createdAt}] ${m.channel} → ${m.to}\n  ${m.subject}\n  ${m.body.replace(/\n/g, '\n  ')}\n`);
    },
  }),
  command({
    name: 'faucet',
    args: 'status|pause|resume|fund <eur>',
    about: 'the faucet: show it, pause it (GAME OVER after the current round), resume it, add budget',
    contract: faucetStatusSchema,
    run: async (rest, ask) => {
      const [action, amount] = rest;
      if (action === 'fund' && !amount) throw new CliError('Usage: faucet fund <eur>');
      if (!action || !['status', 'pause', 'resume', 'fund'].includes(action))
        throw new CliError('Usage: faucet status|pause|resume|fund <eur>');
      const state = await (action === 'status'
        ? ask('GET', '/api/ops/faucet')
        : action === 'fund'
          ? ask('POST', '/api/ops/faucet/fund', { eur: amount })
          : ask('POST', `/api/ops/faucet/${action}`));
      const round = state.round ? `round ${state.round.id} ${state.round.state}` : 'no round yet';
      console.log(
        `Faucet ${state.paused ? 'paused (GAME OVER after the current round)' : 'running'}, budget ${state.budgetEur} EUR, ${round}.`,
      );
    },
  }),
  command({
    name: 'payouts',
    args: '[--status <awaiting_approval|pending|submitting|submitted|completed|failed>] [--rail chain|bank] [--json]',
    about:
      'payouts, oldest first; an external signer or bank executes the submitted ones;\nawaiting_approval: those waiting for two operators, with why and who reviewed',
    contract: payoutsResponse,
    run: async (rest, ask) => {
      const [status, rail] = [option(rest, '--status'), option(rest, '--rail')];
      const query = new URLSearchParams({ ...(status ? { status } : {}), ...(rail ? { rail } : {}), limit: '500' });
      const { payouts } = await ask('GET', `/api/ops/payouts?${query}`);
      if (rest.includes('--json')) console.log(JSON.stringify(payouts, null, 2));
      else if (payouts.length === 0) console.log('No payouts.');
      else for (const p of payouts) console.log(payoutLine(p));
    },
  }),
  command({
    name: 'payout-result',
    args: '<id> completed <txid> | payout-result <id> failed <reason>',
    about: 'report what became of a submitted payout (what the signer or bank reports)',
    contract: payoutResultResponse,
    run: async (rest, ask) => {
      const [id, status, ...what] = rest;
      const detail = what.join(' ');
      if (!id || (status !== 'completed' && status !== 'failed') || !detail)
        throw new CliError('Usage: payout-result <id> completed <txid> | payout-result <id> failed <reason>');
      const { payout, booked } = await ask(
        'POST',
        `/api/ops/payouts/${id}/result`,
        status === 'completed' ? { status, txid: detail } : { status, reason: detail },
      );
      console.log(
        booked
          ? `Payout ${id} (${payout.amount} ${payout.currency}) is now ${payout.status}.`
          : `Payout ${id} was already ${payout.status} with this result.`,
      );
    },
  }),
  command({
    name: 'audit',
    args: '[--action <a>] [--actor <x>] [--target <t>] [--since <date>] [--until <date>]\n[--limit <n>] [--cursor <id>] [--json | --csv]',
    about:
      'the audit trail, newest first (--csv: every matching row, oldest first);\nan action ending with a dot is a group (--action faucet.)',
    contract: auditListResponse,
    run: async (rest, ask) => {
      const filters = {
        action: option(rest, '--action'),
        actor: option(rest, '--actor'),
        target: option(rest, '--target'),
        from: option(rest, '--since'),
        to: option(rest, '--until'),
      };
      const query = new URLSearchParams(
        Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      if (rest.includes('--csv')) {
        console.write(await asker(z.string())('GET', `/api/ops/audit.csv?${query}`, undefined, { text: true }));
        return;
      }
      const limit = option(rest, '--limit');
      const cursor = option(rest, '--cursor');
      if (limit) query.set('limit', limit);
      if (cursor) query.set('cursor', cursor);
      const { entries, nextCursor } = await ask('GET', `/api/ops/audit?${query}`);
      if (rest.includes('--json')) console.log(JSON.stringify(entries, null, 2));
      else if (entries.length === 0) console.log('No audit rows match.');
      else {
        const state = (value: unknown) => (value === null ? '–' : JSON.stringify(value));
        for (const e of entries)
          console.log(
            `#${e.id}  ${e.at}  ${e.actor}  ${e.action}  ${e.target ?? '–'}  ${state(e.before)} → ${state(e.after)}`,
          );
        if (nextCursor) console.log(`(older rows: add --cursor ${nextCursor})`);
      }
    },
  }),
  command({
    name: 'audit:verify',
    about: "recompute the audit trail's hash chain; exits 1 at the first broken row",
    contract: auditVerifyResponse,
    run: async (_, ask) => {
      const result = await ask('GET', '/api/ops/audit/verify');
      if (result.broken)
        throw new CliError(
          `BROKEN at row #${result.broken.id} (${result.broken.reason}): ${result.broken.message} ${result.rows} row(s) before it hold.`,
          1,
        );
      console.log(
        result.rows === 0
          ? 'The audit trail is empty.'
          : `The audit trail holds: ${result.rows} row(s), the last #${result.lastId} with hash ${result.lastHash}.`,
      );
    },
  }),
  command({
    name: 'import-statement',
    args: '<file> [--json]',
    about:
      "import the bank's camt.053 statement (or a camt.054 notification, in any\nencoding it declares; other accounts in the file are skipped and named):\ncredits pay the orders and deposits\ntheir reason names (as payment-received), once per bank reference; the\nothers go to the unmatched queue; debits complete exported payouts;\na return (the payee's bank sent a payout back) returns its payout",
    contract: importStatementResponse,
    run: async (rest, ask) => {
      const [file] = rest.filter((arg) => arg !== '--json');
      if (!file) throw new CliError('Usage: import-statement <file>');
      if (!fs.existsSync(file)) throw new CliError(`No file ${file}.`);
      // The bytes as the bank wrote them: the server reads the encoding the file declares.
      const result = await ask('POST', '/api/ops/bank/statements', undefined, { xml: fs.readFileSync(file) });
      if (rest.includes('--json')) {
        console.log(JSON.stringify(result, null, 2));
        return;
      }
      for (const line of result.lines) {
        const what = line.reference ?? line.paymentId ?? '';
        console.log(
          `${line.outcome.padEnd(16)}  ${line.direction.padEnd(6)}  ${line.amount} ${line.currency}  ${line.entryRef}  ${what}${line.reason ? `  (${line.reason})` : ''}`,
        );
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
    },
  }),
  command({
    name: 'unmatched',
    args: '[--status open|matched|assigned|refunded|returned|all] [--json]',
    about: 'bank payments from statements; by default the unmatched queue (open)',
    contract: bankPaymentsResponse,
    run: async (rest, ask) => {
      const status = rest.includes('--status') ? rest[rest.indexOf('--status') + 1] : 'open';
      const { payments } = await ask(
        'GET',
        `/api/ops/bank/unmatched?${new URLSearchParams({ status: status ?? 'open', limit: '500' })}`,
      );
      if (rest.includes('--json')) console.log(JSON.stringify(payments, null, 2));
      else if (payments.length === 0)
        console.log(status === 'open' ? 'No unmatched bank payments.' : 'No bank payments.');
      else
        for (const p of payments) {
          const candidates = p.candidates.length ? `: ${p.candidates.join(' | ')}` : '';
          const state =
            p.status === 'open'
              ? `open (${p.unmatchedReason ?? '?'}${candidates})`
              : (p.resolution ?? `${p.status} ${p.orderReference ?? ''}`);
          // A return is never refunded to its IBAN: say so where the operator would reach for refund-payment.
          const returned = p.returned
            ? `  RETURN ${p.returned.reason ?? '(no reason)'}: not refundable to this IBAN`
            : '';
          console.log(
            `${p.id}  ${p.bookingDate ?? ''}  ${p.amount} ${p.currency}  ${p.payerName ?? '(no name)'}  ${p.payerIban ?? '(no IBAN)'}  "${p.remittance}"  ${state}${returned}`,
          );
        }
    },
  }),
  command({
    name: 'returns',
    args: '[--json]',
    about: "returned payouts waiting for the customer's new IBAN, oldest first",
    contract: payoutReturnsAwaitingResponse,
    run: async (rest, ask) => {
      const { returns } = await ask('GET', '/api/ops/bank/returns');
      if (rest.includes('--json')) console.log(JSON.stringify(returns, null, 2));
      else if (returns.length === 0) console.log('No returned payout waits for a new IBAN.');
      else
        for (const r of returns) {
          const who = r.anonymous
            ? `anonymous, link ${r.linkExpiresAt ? `until ${r.linkExpiresAt}` : 'none (return-link)'}`
            : 'account holder (order page)';
          console.log(
            `${r.id}  ${r.returnedAt}  ${r.amount} EUR  order ${r.orderReference}  ${r.reason ?? '(no reason)'}${r.reasonInfo ? ` "${r.reasonInfo}"` : ''}  ${who}`,
          );
        }
    },
  }),
  command({
    name: 'return-link',
    args: '<id>',
    about: 'email an anonymous seller a new link for their new IBAN (the old one\nstops working)',
    contract: payoutReturnLinkResponse,
    run: async (rest, ask) => {
      const [id] = rest;
      if (!id) throw new CliError('Usage: return-link <id> (from npm run ops -- returns)');
      const { orderReference } = await ask('POST', `/api/ops/bank/returns/${id}/link`);
      console.log(`A new link for order ${orderReference} is emailed; the old one no longer works.`);
    },
  }),
  command({
    name: 'assign-payment',
    args: '<id> <order reference | DEPOSIT<accountKey> [CUR]>',
    about: 'book an unmatched payment for this order or deposit',
    contract: assignPaymentResponse,
    run: async (rest, ask) => {
      const [id, ...target] = rest;
      if (!id || target.length === 0)
        throw new CliError('Usage: assign-payment <id> <order reference | DEPOSIT<accountKey> [CUR]>');
      const { order } = await ask('POST', `/api/ops/bank/unmatched/${id}/assign`, { target: target.join(' ') });
      console.log(`Payment ${id} assigned to ${order.type} order ${order.reference}: ${order.status}.`);
    },
  }),
  command({
    name: 'refund-payment',
    args: '<id>',
    about: "send an unmatched payment back to the payer's IBAN (a SEPA payout,\nin the next payouts file)",
    contract: refundPaymentResponse,
    run: async (rest, ask) => {
      const [id] = rest;
      if (!id) throw new CliError('Usage: refund-payment <id>');
      const { payout } = await ask('POST', `/api/ops/bank/unmatched/${id}/refund`);
      console.log(
        `Payment ${id}: ${payout.amount} ${payout.currency} go back to ${payout.destination} (payout ${payout.id}, in the next payouts file).`,
      );
    },
  }),
  command({
    name: 'export-payouts',
    args: '[--out <file>]',
    about:
      'every EUR payout that is due, in one SEPA credit transfer file\n(pain.001.001.03) to upload to the bank; default file: <MsgId>.xml',
    contract: exportPayoutsResponse,
    run: async (rest, ask) => {
      const out = rest.includes('--out') ? rest[rest.indexOf('--out') + 1] : undefined;
      if (rest.includes('--out') && !out) throw new CliError('--out needs a file name.');
      const result = await ask('POST', '/api/ops/bank/payouts-export');
      for (const s of result.skipped)
        console.log(
          `Left out: payout ${s.payoutId} (${s.reason}); report it with payout-result once paid another way.`,
        );
      if (!result.export || !result.xml) {
        console.log('No payouts are due.');
        return;
      }
      const file = out ?? `${result.export.messageId}.xml`;
      writeFile(file, result.xml);
      console.log(
        `${file}: ${payoutsCount(result.export.payouts)}, EUR ${result.export.total} (file ${result.export.id}). Upload it to the bank once.`,
      );
    },
  }),
  command({
    name: 'bank-exports',
    args: '[--json]',
    about: 'the payouts files made so far, newest first',
    contract: bankExportsResponse,
    run: async (rest, ask) => {
      const { exports } = await ask('GET', '/api/ops/bank/exports?limit=500');
      if (rest.includes('--json')) console.log(JSON.stringify(exports, null, 2));
      else if (exports.length === 0) console.log('No payouts files yet.');
      else
        for (const e of exports)
          console.log(
            `${e.id}  ${e.createdAt}  ${e.messageId}  ${payoutsCount(e.payouts)}  EUR ${e.total}  by ${e.createdBy}`,
          );
    },
  }),
  command({
    name: 'bank-export',
    args: '<id> [--out <file>]',
    about: 'a payouts file again, as it was made',
    contract: bankExportFileResponse,
    run: async (rest) => {
      const [id] = rest;
      const out = rest.includes('--out') ? rest[rest.indexOf('--out') + 1] : undefined;
      if (!id || id === '--out' || (rest.includes('--out') && !out))
        throw new CliError('Usage: bank-export <id> [--out <file>]');
      const { response, payload } = await callWithResponse('GET', `/api/ops/bank/exports/${id}`, undefined, {
        text: true,
      });
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${id}.xml`;
      const file = out ?? name;
      writeFile(file, checked(bankExportFileResponse, `/api/ops/bank/exports/${id}`, payload));
      console.log(`${file} written.`);
    },
  }),
  command({
    name: 'payout-approve',
    args: '<id>',
    about:
      "approve a payout awaiting approval: the first operator's approval is the review,\na second, different operator's releases it (neither may be who triggered it)",
    contract: payoutApproveResponse,
    run: async (rest, ask) => {
      const [id] = rest;
      if (!id) throw new CliError('Usage: payout-approve <id>');
      const { payout, released } = await ask('POST', `/api/ops/payouts/${id}/approve`);
      console.log(
        released
          ? `Payout ${id} (${payout.amount} ${payout.currency}) approved by a second operator: it is now ${payout.status}.`
          : `Payout ${id} (${payout.amount} ${payout.currency}) reviewed: it waits for the approval of another operator.`,
      );
    },
  }),
  command({
    name: 'payout-reject',
    args: '<id> <reason>',
    about:
      'reject a payout awaiting approval: it fails and its money goes back (a send to\nthe balance, an order is refunded)',
    contract: payoutRejectResponse,
    run: async (rest, ask) => {
      const [id, ...why] = rest;
      const reason = why.join(' ');
      if (!id || !reason) throw new CliError('Usage: payout-reject <id> <reason>');
      const { payout } = await ask('POST', `/api/ops/payouts/${id}/reject`, { reason });
      console.log(
        `Payout ${id} (${payout.amount} ${payout.currency}) rejected: it is now ${payout.status} and its money went back.`,
      );
    },
  }),
];

/** The usage, written from the table. */
export function usage(): string {
  const lines = COMMANDS.flatMap(({ name, args, about }) => {
    const [head = name, ...more] = (args ? `${name} ${args}` : name).split('\n');
    const [first = '', ...rest] = about.split('\n');
    const short = more.length === 0 && head.length < 23;
    return [
      short ? `  ${head.padEnd(24)}${first}` : `  ${head}`,
      ...more.map((line) => `        ${line}`),
      ...(short ? rest : [first, ...rest]).map((line) => `${' '.repeat(26)}${line}`),
    ];
  });
  return `Usage: npm run ops -- <command>\n\nCommands:\n${lines.join('\n')}\n\nOptions: --as <email>    (local) act as the operator <OPS_SUBJECT>:<email> instead of OPS_SUBJECT (also OPS_AS)\n\nSettings as the server reads them (the environment over .env): PORT and HOST (or OPS_URL) to find\nthe server, DATA_DIR for the local provider's key, OPS_SUBJECT (default ops-cli) as who acts\nlocally, OPS_TOKEN in production.`;
}

/** A command without a contract asks no JSON of the server. */
const noAnswer: Ask<never> = () => Promise.reject(new Error('this command has no contract'));

export async function run(argv: string[]): Promise<void> {
  const { as, args } = operatorOption(argv);
  actingAs = as;
  const [name, ...rest] = args;
  const found = COMMANDS.find((entry) => entry.name === name);
  if (found) return found.run(rest, found.contract ? asker(found.contract) : noAnswer);
  console.log(usage());
  if (name && name !== 'help' && name !== '--help') throw new CliError(`Unknown command: ${name}`);
}

if (require.main === module) {
  run(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof CliError ? error.message : error);
    process.exit(error instanceof CliError ? error.exitCode : 1);
  });
}
