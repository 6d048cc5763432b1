import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';

/*
 * OpenTelemetry traces of a lead's journey (docs/tracing.md): the BFF's submit request, the queue (BullMQ's own
 * spans, through `bullmq-otel`), the worker's job runs, each buyer call (which sends `traceparent`) and the outcome
 * published and pushed. Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then no SDK is even loaded and every
 * span below is the API's no-op. Span attributes hold ids, names and statuses only, never a person's data.
 */

const TRACER = 'funnel';

/** A process's tracing, once started: what it still holds is sent on `flush` and on `shutdown`. */
export interface Tracing {
  flush(): Promise<void>;
  /** Sends what is buffered and stops: the process's spans are no-ops again. */
  shutdown(): Promise<void>;
}

/**
 * Starts exporting this process's spans over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`, as
 * `OTEL_EXPORTER_OTLP_ENDPOINT` means in the OpenTelemetry specification; without an endpoint it does nothing.
 * The SDK is imported only here, so a process with tracing off never loads it.
 */
export async function startTracing(options: {
  serviceName: string;
  endpoint: string | undefined;
}): Promise<Tracing | undefined> {
  if (!options.endpoint) return undefined;
  const [{ BatchSpanProcessor, NodeTracerProvider }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global tracer, the AsyncLocalStorage context and the W3C trace-context propagator.
  provider.register();
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** BullMQ's `telemetry` option when tracing is on: a job's add and each of its runs are spans of one trace. */
export function queueTelemetry(tracing: boolean): Telemetry | undefined {
  return tracing ? new BullMQOtel({ tracerName: TRACER }) : undefined;
}

interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The W3C `traceparent` of a parent in another process (a request's header, a published message). */
  traceparent?: string | undefined;
}

/**
 * Runs `work` in a new span, a child of `traceparent` when given, of the active span otherwise; the span ends
 * with `work`, failed when it throws.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.traceparent
    ? propagation.extract(context.active(), { traceparent: options.traceparent })
    : context.active();
  const spanOptions = {
    kind: options.kind ?? SpanKind.INTERNAL,
    ...(options.attributes ? { attributes: options.attributes } : {}),
  };
  return trace.getTracer(TRACER).startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The headers that carry the active span to the next process (`traceparent`); none when tracing is off. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The active span's `traceparent`, to put in a message; undefined when tracing is off. */
export function activeTraceparent(): string | undefined {
  return traceHeaders().traceparent;
}

/** The id of the trace being recorded (32 hex digits), for the lead's journey; undefined when tracing is off. */
export function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

export { SpanKind, type Span };
