import { describe, expect, it } from 'vitest';
import { isLocalOnlyUrl } from './admin-texts.ts';

describe('isLocalOnlyUrl', () => {
  it('flags the addresses only the server itself can open', () => {
    for (const url of [
      'http://localhost:8000',
      'http://LOCALHOST',
      'http://app.localhost:8000',
      'http://127.0.0.1:8000',
      'http://127.1.2.3',
      'http://[::1]:8000',
      'http://0.0.0.0:8000',
    ]) {
      expect(isLocalOnlyUrl(url), url).toBe(true);
    }
  });

  it('leaves real addresses (and a LAN address a phone on the same network can open) alone', () => {
    for (const url of ['https://tickets.example.com', 'http://192.168.1.20:8000', 'http://localhost.example.com', 'not a url']) {
      expect(isLocalOnlyUrl(url), url).toBe(false);
    }
  });
});
