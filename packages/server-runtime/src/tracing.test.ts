import { describe, expect, it } from 'vitest';
import { activeTraceId, inSpan, queueTelemetry, startTracing, traceHeaders } from './tracing.js';

describe('tracing, off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('starts nothing, records no span, sends no traceparent and gives BullMQ no telemetry', async () => {
    expect(await startTracing({ serviceName: 'funnel-test', endpoint: undefined })).toBeUndefined();
    const inside = await inSpan(
      'work',
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      async (span) => ({ recording: span.isRecording(), traceId: activeTraceId(), headers: traceHeaders() }),
    );
    expect(inside).toEqual({ recording: false, traceId: undefined, headers: {} });
    expect(queueTelemetry(false)).toBeUndefined();
  });

  it('still ends a failed span with its error', async () => {
    await expect(
      inSpan('work', {}, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});
