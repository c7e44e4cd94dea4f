import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.ts';

describe('addressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.7:51234')).toBe('203.0.113.7');
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 address, dotted or in hex, compressed or full', () => {
    for (const mapped of [
      '::ffff:1.2.3.4',
      '::FFFF:1.2.3.4',
      '::ffff:102:304',
      '0:0:0:0:0:ffff:1.2.3.4',
      '0000:0000:0000:0000:0000:ffff:0102:0304',
    ]) {
      expect(addressKey(mapped), mapped).toBe('1.2.3.4');
    }
    expect(addressKey('[::ffff:1.2.3.4]:443')).toBe('1.2.3.4');
  });

  it('keys every address of one /64 alike, however written', () => {
    const forms = [
      '2001:db8:7:1::1',
      '2001:DB8:7:1::ABCD',
      '2001:0db8:0007:0001:0000:0000:0000:0001',
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:db8:7:1::',
      '2001:db8:7:1:1::1',
      '2001:db8:7:1::1.2.3.4',
      '[2001:db8:7:1::5]',
      '[2001:db8:7:1::5]:8443',
      '2001:db8:7:1::5%eth0',
      '[2001:db8:7:1::5%25eth0]:80',
    ];
    for (const form of forms) expect(addressKey(form), form).toBe('2001:db8:7:1::/64');
  });

  it('tells neighbouring /64s apart, the zeros of a compressed prefix included', () => {
    expect(addressKey('2001:db8:7:2::1')).toBe('2001:db8:7:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%lo0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('1::')).toBe('1:0:0:0::/64');
  });

  it('leaves what is not an address as given', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('2001:db8:::1')).toBe('2001:db8:::1');
    expect(addressKey('999.1.1.1')).toBe('999.1.1.1');
  });

  it('gives a key back unchanged, so keying twice is harmless', () => {
    for (const address of ['2001:db8:7:1::5', '::ffff:1.2.3.4', '203.0.113.7', 'unknown']) {
      expect(addressKey(addressKey(address)), address).toBe(addressKey(address));
    }
  });
});
