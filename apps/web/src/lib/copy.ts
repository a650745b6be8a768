import { toast } from 'sonner';

export async function copyToClipboard(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied`, { description: text, duration: 2500 });
  } catch {
    toast.error('Could not copy', { description: 'Select the text and copy it yourself.' });
  }
}
