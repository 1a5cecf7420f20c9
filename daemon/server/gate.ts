// The WebSocket API's door: the role a connection's token gives it, from the URL at the upgrade or
// presented later (`auth`, a call's `param.token`). A token is compared only from pages allowed to
// present one, and while the address has guesses left; a wrong one counts against the address.
import { type AuthLimiter, type Role, roleOf, type Tokens } from './auth.ts';
import { CallError } from './protocol.ts';
import type { Client } from './client.ts';

export class Gate {
  constructor(
    private readonly tokens: Tokens,
    private readonly limiter: AuthLimiter,
    private readonly log: { info(obj: object, msg?: string): void },
  ) {}

  /** The role `?token=` grants, or the HTTP status that refuses the upgrade. */
  urlRole(
    token: string | undefined,
    address: string | undefined,
    tokensAccepted: boolean,
  ): Role | { refused: string } {
    if (token === undefined) return 'spectator';
    if (!tokensAccepted) return { refused: '403 Forbidden' };
    if (!this.limiter.allows(address)) return { refused: '429 Too Many Requests' };
    const role = roleOf(this.tokens, token);
    if (!role) {
      this.limiter.failed(address);
      return { refused: '401 Unauthorized' };
    }
    this.log.info({ address, role, via: 'url' }, 'arbiter authenticated');
    return role;
  }

  /** A token presented on this connection: the role it proves, kept on the connection. */
  authenticate(client: Client, token: string, via: 'auth' | 'param'): Role {
    if (!client.tokensAccepted) {
      throw new CallError(
        'unauthorized',
        `tokens are not accepted from pages at ${client.origin?.slice(0, 200)}`,
      );
    }
    if (client.provenToken !== undefined && token === client.provenToken) return client.role;
    if (!this.limiter.allows(client.address)) {
      throw new CallError('rate-limited', 'too many wrong tokens from this address: try again later');
    }
    const role = roleOf(this.tokens, token);
    if (!role) {
      this.limiter.failed(client.address);
      throw new CallError('unauthorized', 'bad token');
    }
    if (client.role !== role) this.log.info({ address: client.address, role, via }, 'arbiter authenticated');
    client.role = role;
    client.provenToken = token;
    return role;
  }

  /** An arbiter's call: the connection's role, or the one `token` proves. */
  requireArbiter(client: Client, token: string | undefined): void {
    if (token !== undefined) this.authenticate(client, token, 'param');
    if (!client.isArbiter()) throw new CallError('unauthorized', 'this needs the arbiter or admin token');
  }
}
