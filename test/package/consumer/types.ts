// Type-checked by test/package-consumer.test.ts with the installed package's own .d.ts files, under
// `moduleResolution: node16` and `bundler`. Each `@ts-expect-error` is a wrong call the public types
// must reject: if a type decays to `any` (or an entry has no types), the directive itself fails.
import { getRule, type Rule } from 'cca-kit';
import { ApiClient, type BodyOf, ConformanceClient } from 'cca-kit/client';
import { type ConformanceReport, runConformance } from 'cca-kit/conformance';
import { type components, type OperationId, validateResponse } from 'cca-kit/contract';
import { type MockServer, startMockServer } from 'cca-kit/mock';
import { createHandlers, type MockHandlers } from 'cca-kit/msw';

export async function consume(): Promise<void> {
  const rule: Rule = getRule('AUTH-MISSING-KEY-401');
  // @ts-expect-error a rule's statement is a string
  const statementLength: number = rule.statement;

  const mock: MockServer = await startMockServer({ port: 0, seed: 42 });
  // @ts-expect-error the port is a number
  const port: string = mock.port;

  const client = new ConformanceClient({ baseUrl: mock.url, keys: { read: 'key' } });
  const api = new ApiClient(client);
  const page = await api.call('listActions', { auth: 'read', query: { pageSize: 5 } });
  if (page.ok) {
    const action: components['schemas']['ActionSummary'] | undefined = page.body.data[0];
    // @ts-expect-error identifiers are strings, never numbers
    const id: number | undefined = action?.actionId;
    void id;
  }
  // @ts-expect-error an operationId the contract does not have
  await api.call('listActionz', { auth: 'read' });
  // @ts-expect-error getAction needs its path parameter
  await api.call('getAction', { auth: 'read' });

  // Spec 2.7: a submission's `language` is optional (default en), so a body without it type-checks...
  type Submission = components['schemas']['ModerationSubmission'];
  const withoutLanguage: BodyOf<'submitModerationCase'> = {} as Omit<Submission, 'language'>;
  // @ts-expect-error ...while `title` is required: the check above is not vacuous
  const withoutTitle: BodyOf<'submitModerationCase'> = {} as Omit<Submission, 'title'>;

  const operation: OperationId = 'getAction';
  // @ts-expect-error not an operationId
  const wrong: OperationId = 'getActions';
  const checked = validateResponse(operation, 200, {});
  if (!checked.ok) {
    // @ts-expect-error issues are read-only
    checked.issues.push();
  }

  const handlers: MockHandlers = createHandlers({ baseUrl: '/api' });
  // @ts-expect-error createHandlers needs a baseUrl
  createHandlers({});
  // @ts-expect-error the handlers are an array
  handlers.handlers.listen();

  const report: ConformanceReport = await runConformance({ target: { baseUrl: mock.url, keys: {} } });
  // @ts-expect-error the verdict is a closed union
  const verdict: 'maybe' = report.verdict;

  await client.close();
  await mock.close();
  void [statementLength, port, wrong, verdict, withoutLanguage, withoutTitle];
}
