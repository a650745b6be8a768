/** A text link's look: the brand colour, underlined on hover and focus. */
export const linkClass =
  'font-medium text-primary underline-offset-4 hover:underline focus-visible:underline';
