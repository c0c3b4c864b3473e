/**
 * Mutating- and ValidatingWebhookConfigurations: printers.go mutatingWebhookColumnDefinitions /
 * validatingWebhookColumnDefinitions (Name, Webhooks, Age), printMutatingWebhook /
 * printValidatingWebhook: the number of webhooks.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr } from './cells.js';
import type { KindPrinter } from './types.js';

export const webhookconfigurations: KindPrinter = {
  columns: [NAME, { name: 'Webhooks' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, String(arr(obj, 'webhooks').length), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
