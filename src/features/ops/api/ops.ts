import { ApiFailure, apiRequest } from '../../../app/api';
import { apiOrigin } from '../../../config';
import type { AuditListResponse, AuditQuery, AuditVerifyResponse } from '#domain/contracts/audit';
import type {
  AssignPaymentResponse,
  BankExportsResponse,
  BankPaymentsResponse,
  ExportPayoutsResponse,
  ImportStatementResponse,
  ImportStreamLine,
  PayoutReturnsAwaitingResponse,
  RefundPaymentResponse,
} from '#domain/contracts/bank';
import type {
  OpsAccountResponse,
  OpsAccountsResponse,
  OpsOrderResponse,
  OpsOrdersQuery,
  OpsOrdersResponse,
  OpsQueues,
  VerificationDocumentsResponse,
  VerificationRejectResponse,
} from '#domain/contracts/console';
import type { CurrentRoundResponse, FaucetStatus, RoundResponse } from '#domain/contracts/faucet';
import type {
  EnableVerificationResponse,
  OpsIdentityResponse,
  VerificationRequestsResponse,
  VerifyResponse,
} from '#domain/contracts/ops';
import type { PayoutApproveResponse, PayoutRejectResponse, PayoutsResponse } from '#domain/contracts/payouts';
import type { ErrorBody } from '#domain/errors';
import type { Language } from '#domain/languages';
import type { VerificationKind, VerificationRejectionReason } from '#domain/verification';

/**
 * The operator console's calls: every one under /api/ops with the operator's token (admin:muntly),
 * the same routes `npm run ops` uses. `OpsApi` binds the token and the page language once.
 */
export type OpsApi = ReturnType<typeof opsApi>;

/** The freeze of an account's sends (account protection, issue 19): answered by its own routes. */
export type FreezeAction = 'freeze' | 'unfreeze';

const query = (values: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(values).flatMap(([key, value]) =>
      value === undefined || value === null || value === '' ? [] : [[key, String(value)]],
    ),
  ).toString();

export function opsApi(token: () => Promise<string>, language: Language) {
  const get = async <T>(path: string) => apiRequest<T>(await token(), language, path);
  const post = async <T>(path: string, body?: unknown) =>
    apiRequest<T>(await token(), language, path, { method: 'POST', body });
  /** A file the API answers (CSV, XML): its text, or the API's error. */
  const text = async (path: string, init: { method?: string; body?: string; contentType?: string } = {}) => {
    const response = await fetch(`${apiOrigin}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${await token()}`,
        'accept-language': language,
        ...(init.contentType ? { 'content-type': init.contentType } : {}),
      },
      body: init.body,
    });
    if (!response.ok) {
      const payload = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
      throw new ApiFailure(response.status, payload.error?.code ?? 'generic', payload.error?.field);
    }
    return response.text();
  };
  return {
    queues: () => get<OpsQueues>('/api/ops/queues'),
    verificationRequests: () => get<VerificationRequestsResponse>('/api/ops/verification-requests'),
    verificationDocuments: () => get<VerificationDocumentsResponse>('/api/ops/verification-documents'),
    identity: (email: string) => get<OpsIdentityResponse>(`/api/ops/identity?${query({ email })}`),
    enableVerification: (email: string, kind: VerificationKind) =>
      post<EnableVerificationResponse>('/api/ops/verification/enable', { email, kind }),
    verify: (email: string, kind: VerificationKind) =>
      post<VerifyResponse>('/api/ops/verification/verify', { email, kind }),
    rejectVerification: (email: string, kind: VerificationKind, reason: VerificationRejectionReason) =>
      post<VerificationRejectResponse>('/api/ops/verification/reject', { email, kind, reason }),
    unmatched: () => get<BankPaymentsResponse>('/api/ops/bank/unmatched?status=open&limit=500'),
    assignPayment: (id: string, target: string) =>
      post<AssignPaymentResponse>(`/api/ops/bank/unmatched/${id}/assign`, { target }),
    refundPayment: (id: string) => post<RefundPaymentResponse>(`/api/ops/bank/unmatched/${id}/refund`),
    payoutReturns: () => get<PayoutReturnsAwaitingResponse>('/api/ops/bank/returns'),
    payoutsAwaitingApproval: () => get<PayoutsResponse>('/api/ops/payouts?status=awaiting_approval&limit=500'),
    approvePayout: (id: string) => post<PayoutApproveResponse>(`/api/ops/payouts/${id}/approve`),
    rejectPayout: (id: string, reason: string) =>
      post<PayoutRejectResponse>(`/api/ops/payouts/${id}/reject`, { reason }),
    orders: (filter: Omit<OpsOrdersQuery, 'limit'>) => get<OpsOrdersResponse>(`/api/ops/orders?${query(filter)}`),
    order: (reference: string) => get<OpsOrderResponse>(`/api/ops/orders/${encodeURIComponent(reference)}`),
    accounts: (q: string) => get<OpsAccountsResponse>(`/api/ops/accounts?${query({ q })}`),
    account: (accountKey: string) => get<OpsAccountResponse>(`/api/ops/accounts/${encodeURIComponent(accountKey)}`),
    /** POST /api/ops/accounts/:accountKey/freeze | unfreeze with `{ reason }` (account protection's routes). */
    freeze: (accountKey: string, action: FreezeAction, reason: string) =>
      post<unknown>(`/api/ops/accounts/${encodeURIComponent(accountKey)}/${action}`, { reason }),
    faucet: () => get<FaucetStatus>('/api/ops/faucet'),
    faucetAction: (action: 'pause' | 'resume') => post<FaucetStatus>(`/api/ops/faucet/${action}`),
    fundFaucet: (eur: string) => post<FaucetStatus>('/api/ops/faucet/fund', { eur }),
    /** A round as anyone sees it (GET /api/faucet/rounds/:id): the console lists the latest. */
    round: (id: number) => apiRequest<RoundResponse>(null, language, `/api/faucet/rounds/${id}`),
    currentRound: () => apiRequest<CurrentRoundResponse>(null, language, '/api/faucet'),
    audit: (filter: Omit<AuditQuery, 'limit'>) =>
      get<AuditListResponse>(`/api/ops/audit?${query({ ...filter, limit: 50 })}`),
    auditCsv: (filter: Omit<AuditQuery, 'limit' | 'cursor'>) => text(`/api/ops/audit.csv?${query(filter)}`),
    verifyAudit: () => get<AuditVerifyResponse>('/api/ops/audit/verify'),
    /**
     * The statement's bytes as the bank wrote them (the server reads the encoding the file
     * declares), with its progress as the server commits it: the answer is streamed, one JSON
     * line per batch (`Accept: application/x-ndjson`), then the result or the error.
     */
    importStatement: async (
      file: ArrayBuffer,
      onProgress: (progress: { done: number; total: number }) => void,
    ): Promise<ImportStatementResponse> => {
      const response = await fetch(`${apiOrigin}/api/ops/bank/statements`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await token()}`,
          'accept-language': language,
          'content-type': 'application/xml',
          accept: 'application/x-ndjson',
        },
        body: file,
      });
      if (!response.ok) {
        const payload = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
        throw new ApiFailure(response.status, payload.error?.code ?? 'generic', payload.error?.field);
      }
      for await (const line of ndjsonLines(response)) {
        const step = JSON.parse(line) as ImportStreamLine;
        if ('progress' in step) onProgress(step.progress);
        else if ('result' in step) return step.result;
        else throw new ApiFailure(400, step.error.code as ErrorBody['error']['code']);
      }
      // The connection ended before the result: what was committed counts; importing again is safe.
      throw new ApiFailure(response.status, 'generic');
    },
    exportPayouts: () => post<ExportPayoutsResponse>('/api/ops/bank/payouts-export'),
    bankExports: () => get<BankExportsResponse>('/api/ops/bank/exports?limit=50'),
    bankExportFile: (id: string) => text(`/api/ops/bank/exports/${id}`),
  };
}

/** A streamed answer's lines as they arrive (all at once where the response has no readable body). */
async function* ndjsonLines(response: Response): AsyncGenerator<string> {
  if (!response.body) {
    yield* (await response.text()).split('\n').filter((line) => line.trim());
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    pending += decoder.decode(value, { stream: !done });
    const lines = pending.split('\n');
    pending = done ? '' : lines.pop()!;
    yield* lines.filter((line) => line.trim());
    if (done) return;
  }
}

/** Hands the browser a file to save (an export the API answered). */
export function saveFile(name: string, contents: string, type: string): void {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
