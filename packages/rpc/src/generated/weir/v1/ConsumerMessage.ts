// Original file: proto/weir/v1/data_exchange.proto

import type { SubscribeRequest as _weir_v1_SubscribeRequest, SubscribeRequest__Output as _weir_v1_SubscribeRequest__Output } from '../../weir/v1/SubscribeRequest.ts';
import type { Credit as _weir_v1_Credit, Credit__Output as _weir_v1_Credit__Output } from '../../weir/v1/Credit.ts';
import type { Unsubscribe as _weir_v1_Unsubscribe, Unsubscribe__Output as _weir_v1_Unsubscribe__Output } from '../../weir/v1/Unsubscribe.ts';

export interface ConsumerMessage {
  'subscribe'?: (_weir_v1_SubscribeRequest | null);
  'credit'?: (_weir_v1_Credit | null);
  'unsubscribe'?: (_weir_v1_Unsubscribe | null);
  'kind'?: "subscribe"|"credit"|"unsubscribe";
}

export interface ConsumerMessage__Output {
  'subscribe'?: (_weir_v1_SubscribeRequest__Output | null);
  'credit'?: (_weir_v1_Credit__Output | null);
  'unsubscribe'?: (_weir_v1_Unsubscribe__Output | null);
  'kind'?: "subscribe"|"credit"|"unsubscribe";
}
