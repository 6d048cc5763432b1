import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';

export const SESSION_COOKIE = 'funnel_lead';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The lead id bound to this visitor's signed cookie, or undefined when absent or tampered with. Once this
     * request has bound a new lead (`reply.bindLead`), that lead's id: hooks running after the handler see the
     * visitor's lead as the response leaves it.
     */
    sessionLeadId(): string | undefined;
  }
  interface FastifyReply {
    /** Binds a lead to this visitor: signed, HttpOnly, SameSite=Lax, Secure (unless disabled for plain-HTTP dev). */
    bindLead(leadId: string): void;
    /** Forgets this visitor's lead: the session cookie is cleared. */
    unbindLead(): void;
  }
}

// The lead a request bound, kept beside the request rather than on it (no decorator to initialise per request).
const boundLeads = new WeakMap<object, string>();

export interface LeadSessionOptions {
  secrets: string[];
  secure: boolean;
  maxAgeSeconds: number;
}

/**
 * The visitor's only credential: a signed cookie holding their lead id. The first secret signs; all verify,
 * so secrets rotate without logging anyone out.
 */
export default fp<LeadSessionOptions>(
  async (app, options) => {
    await app.register(fastifyCookie, { secret: options.secrets });

    app.decorateRequest('sessionLeadId', function () {
      const bound = boundLeads.get(this);
      if (bound) return bound;
      const raw = this.cookies[SESSION_COOKIE];
      if (!raw) return undefined;
      const unsigned = this.unsignCookie(raw);
      return unsigned.valid && unsigned.value ? unsigned.value : undefined;
    });

    const cookieOptions = { httpOnly: true, secure: options.secure, sameSite: 'lax', path: '/api' } as const;
    app.decorateReply('bindLead', function (leadId: string) {
      boundLeads.set(this.request, leadId);
      this.setCookie(SESSION_COOKIE, leadId, {
        ...cookieOptions,
        signed: true,
        maxAge: options.maxAgeSeconds,
      });
    });

    app.decorateReply('unbindLead', function () {
      boundLeads.delete(this.request);
      this.clearCookie(SESSION_COOKIE, cookieOptions);
    });
  },
  { name: 'lead-session' },
);
