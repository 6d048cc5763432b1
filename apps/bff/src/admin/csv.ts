import type { FastifyReply } from 'fastify';

/** A CSV field: quoted when it must be, and never read as a formula by a spreadsheet. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Answers CSV text as a download named `filename`, past the route's JSON schema. */
export function sendCsv(reply: FastifyReply, filename: string, text: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .serializer((payload: unknown) => String(payload))
    .send(text);
}
