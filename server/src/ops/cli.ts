import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { KEYS_FILE, mintAccessToken, readIdpKeys } from '../dev/keys';
import type { FaucetStatus } from '../../../domain/contracts/faucet';
import type {
  BusinessPayment,
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
import type { ErrorBody } from '../../../domain/errors';

/**
 * `npm run ops -- <command>`: the operator's command line. It talks to the running server
 * (OPS_URL, default http://localhost:8000) through /api/ops — PGlite belongs to the server
 * process, so nothing else opens the database. Locally it signs its own admin token with the
 * local identity provider's key, as the operator `ops-cli`, or `ops-cli:<email>` with `--as <email>`
 * or OPS_AS=<email> (four eyes: two operators approve a payout, so locally two emails act as two
 * operators); in production it uses OPS_TOKEN (an Auth0 token with use:muntly and admin:muntly),
 * whose subject is the operator.
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
  ledger:verify           check every ledger invariant; exits 1 when one fails
  retention               delete identity data and support messages whose retention period has
                          ended (every server replica also does this hourly)
  chain-deposit <currency> <address> <amount> [txid]
                          simulate an incoming chain deposit to a wallet reception address
                          or to the receiving address of a sell/swap order
  payment-received <reason> <amountEUR> [txid] [--business]
                          simulate an incoming SEPA payment; reason = a buy order's short
                          reference (ABCD-EFGH) or a deposit reference (DEPOSIT<key> [CUR]);
                          --business: the payer is a business account (the buy waits for a
                          verified business)
  business-payment <reference>
                          the bank statement shows this buy was paid from a business account:
                          it waits until a business behind it is verified
  outbox [--json] [--to <recipient>]
                          messages sent by email, SMS, post and bank transfer, newest first
  faucet status|pause|resume|fund <eur>
                          the faucet: show it, pause it (GAME OVER after the current round), resume it, add budget
  payouts [--status <awaiting_approval|pending|submitting|submitted|completed|failed>] [--rail chain|bank] [--json]
                          payouts, oldest first; an external signer or bank executes the submitted ones;
                          awaiting_approval: those waiting for two operators, with why and who reviewed
  payout-result <id> completed <txid> | payout-result <id> failed <reason>
                          report what became of a submitted payout (what the signer or bank reports)
  payout-approve <id>     approve a payout awaiting approval: the first operator's approval is the review,
                          a second, different operator's releases it (neither may be who triggered it)
  payout-reject <id> <reason>
                          reject a payout awaiting approval: it fails and its money goes back (a send to
                          the balance, an order is refunded)

Options: --as <email>    (local) act as the operator ops-cli:<email> instead of ops-cli (also OPS_AS)

Environment: OPS_URL (default http://localhost:8000), OPS_TOKEN (production), OPS_AS, DATA_DIR, IDP_PORT.`;

class CliError extends Error {}

/** Locally, who the operator is: `ops-cli`, or `ops-cli:<email>` for `--as <email>` / OPS_AS (set by `run`). */
let actingAs: string | undefined;

async function adminToken(): Promise<string> {
  if (process.env.OPS_TOKEN) {
    if (actingAs) throw new CliError('--as (OPS_AS) is for local mode: with OPS_TOKEN, the operator is the token’s subject.');
    return process.env.OPS_TOKEN;
  }
  const config = loadConfig();
  if (!config.localIdp) throw new CliError('Set OPS_TOKEN to an access token with the scopes use:muntly and admin:muntly.');
  if (!fs.existsSync(path.join(config.DATA_DIR, KEYS_FILE))) {
    throw new CliError(`No local identity provider key in ${config.DATA_DIR}: start the server first (npm start).`);
  }
  return mintAccessToken(readIdpKeys(config.DATA_DIR), {
    issuer: config.authIssuer,
    audience: config.authAudience,
    subject: actingAs ? `ops-cli:${actingAs}` : 'ops-cli',
    ...(actingAs ? { email: actingAs } : {}),
    scope: 'use:muntly admin:muntly',
    ttlSeconds: 300,
  });
}

async function call(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
  const base = process.env.OPS_URL ?? `http://localhost:${process.env.PORT ?? 8000}`;
  let response: Response;
  try {
    response = await fetch(new URL(route, base), {
      method,
      headers: { authorization: `Bearer ${await adminToken()}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot reach the Muntly server at ${base}: is it running (npm start)?`);
  }
  const payload = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
  if (!response.ok) throw new CliError(`${response.status} ${payload.error?.code ?? ''}: ${payload.error?.message ?? 'request failed'}`);
  return payload;
}

function requireEmail(value: string | undefined): string {
  if (!value) throw new CliError('This command needs an email address.');
  return value;
}

/** `--as <email>` anywhere among the arguments (else OPS_AS): the operator this run acts as, locally. */
function operatorOption(args: string[]): { as: string | undefined; args: string[] } {
  const at = args.indexOf('--as');
  if (at < 0) return { as: process.env.OPS_AS || undefined, args };
  const email = args[at + 1];
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError('--as needs an email address.');
  return { as: email.toLowerCase(), args: [...args.slice(0, at), ...args.slice(at + 2)] };
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
      if (process.env.AUTH0_DOMAIN) throw new CliError('dev-token is refused when AUTH0_DOMAIN is set: log in through Auth0 instead.');
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
    case 'chain-deposit': {
      const [currency, address, amount, txid] = rest;
      if (!currency || !address || !amount) throw new CliError('Usage: chain-deposit <currency> <address> <amount> [txid]');
      const result = (await call('POST', '/api/ops/chain-deposit', { currency, address, amount, ...(txid ? { txid } : {}) })) as ChainDeposit;
      const target = result.orderReference ? `order ${result.orderReference} (processing)` : address;
      console.log(result.credited ? `Credited ${result.amount} ${currency.toUpperCase()} to ${target} (txid ${result.txid}).` : `Already credited (txid ${result.txid}).`);
      return;
    }
    case 'payment-received': {
      const fromBusinessAccount = rest.includes('--business');
      const [reason, amount, txid] = rest.filter((arg) => arg !== '--business');
      if (!reason || !amount) throw new CliError('Usage: payment-received <shortReference | "DEPOSIT<accountKey> [CUR]"> <amountEUR> [txid] [--business]');
      const result = (await call('POST', '/api/ops/payment-received', { reason, amount, ...(txid ? { txid } : {}), ...(fromBusinessAccount ? { fromBusinessAccount } : {}) })) as PaymentReceived;
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
    case 'ledger:verify': {
      const { ok, checks } = (await call('GET', '/api/ops/ledger/verify')) as LedgerVerifyResponse;
      for (const check of checks) {
        console.log(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}`);
        for (const problem of check.problems.slice(0, 20)) console.log(`        ${problem}`);
      }
      if (!ok) throw new CliError('The ledger is inconsistent.');
      return;
    }
    case 'retention': {
      const run = (await call('POST', '/api/ops/retention')) as RetentionRun;
      console.log(`Deleted the identity data of ${run.identityDataDeleted} verification(s) and ${run.messagesDeleted} support message(s).`);
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
      const option = (name: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
      const query = new URLSearchParams({ ...(option('--status') ? { status: option('--status')! } : {}), ...(option('--rail') ? { rail: option('--rail')! } : {}), limit: '500' });
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
    process.exit(error instanceof CliError ? 2 : 1);
  });
}
