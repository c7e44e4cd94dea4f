import { SERVER_MESSAGES, type AccessLinkResponse } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * The link works once, so one exchange per token per page load: React's development double
 * effects and a re-render must not spend it twice (the second call would be refused as used).
 */
const exchanges = new Map<string, Promise<AccessLinkResponse>>();

export function exchangeAccessLink(token: string): Promise<AccessLinkResponse> {
  let exchange = exchanges.get(token);
  if (!exchange) {
    exchange = apiClient.call('POST /auth/access-link', {
      json: { token },
      skipRefresh: true,
      token: null,
      fallbackMessage: SERVER_MESSAGES.invalidAccessLink,
    });
    exchanges.set(token, exchange);
  }
  return exchange;
}
