import type { AddressInfo } from 'node:net';

/**
 * How this process reaches itself over HTTP. The built-in SMS simulator and payment sandbox are served
 * by the same server, and the adapters talk to them through real HTTP exactly as to remote services;
 * the port is only known once the server listens (tests listen on port 0).
 */
export class Loopback {
  #origin: string | undefined;

  get origin(): string {
    if (!this.#origin) throw new Error('the server is not listening yet, so its own address is unknown');
    return this.#origin;
  }

  setFromAddress(address: AddressInfo | string | null): void {
    if (!address || typeof address === 'string') throw new Error('the server is not listening on TCP');
    const host =
      address.family === 'IPv6'
        ? address.address === '::'
          ? '[::1]'
          : `[${address.address}]`
        : address.address === '0.0.0.0'
          ? '127.0.0.1'
          : address.address;
    this.#origin = `http://${host}:${address.port}`;
  }
}
