import { toast } from 'sonner';
import { errorMessage } from './api-client';

/**
 * Replace, for one-time numbers and rentals alike (spec section 4): cancel first, then repeat; when the
 * cancel fails, nothing is bought. Each outcome is a toast: the spec's texts for a failure, and words of
 * its own for a replacement (the spec's "repeated" belongs to the repeat call).
 */
export async function cancelThenRepeat(input: {
  cancel(): Promise<unknown>;
  repeat(): Promise<unknown>;
  messages: { cancelFailed: string; replaced: string; repeatFailed: string };
}): Promise<void> {
  try {
    await input.cancel();
  } catch (error) {
    toast.error(errorMessage(error, input.messages.cancelFailed));
    return;
  }
  try {
    await input.repeat();
    toast.success(input.messages.replaced);
  } catch (error) {
    toast.error(errorMessage(error, input.messages.repeatFailed));
  }
}
