import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/JSON export carries it, with its process's `service.name` and its attributes flattened. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

const valueOf = (value: OtlpValue) =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ''));
const attributesOf = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]));

/**
 * A collector on a loopback port that accepts OTLP/HTTP JSON trace exports (`POST /v1/traces`) and keeps every
 * span, for tests of what the apps trace. `endpoint` is what `OTEL_EXPORTER_OTLP_ENDPOINT` takes.
 */
export async function startOtlpReceiver(): Promise<{
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
