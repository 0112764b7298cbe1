/**
 * The wire fields of a webhook delivery's state (DeliveryState in
 * webhook-deliveries.ts), one definition for every area that shows it: the
 * search job status (`webhook`, each detail absent when not known) and a
 * monitor's delivery log (each detail null when not known). Each area keeps
 * its own object, field order and extra fields; what the fields are is here.
 */
import { z } from 'zod';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** How an area spells a detail it does not know: `.optional()` or `.nullable()`. */
type Absence<T extends z.ZodType> = (field: z.ZodString) => T;

/** status, attempts and the details (webhook-id, last error, delivery and next-attempt times). */
export function deliveryStateFields<T extends z.ZodType>(absent: Absence<T>) {
  return {
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    /** The Standard Webhooks webhook-id of the message, once it is built. */
    webhook_id: absent(z.string()),
    last_error: absent(z.string()),
    delivered_at: absent(z.string()),
    next_attempt_at: absent(z.string()),
  };
}
