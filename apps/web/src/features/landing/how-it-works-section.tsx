import { Link } from 'react-router';
import { SectionHeading } from './section-heading';

const steps = [
  {
    title: 'Create an account',
    text: 'Sign up with your e-mail address in one step.',
  },
  {
    title: 'Add funds',
    text: 'Top up your USD balance with cryptocurrency, from $5.',
  },
  {
    title: 'Choose a service and a country',
    text: 'Pick where you are signing up and the country of the number, see the price, and buy.',
  },
  {
    title: 'Receive the code',
    text: 'The code shows up in My Numbers. No SMS within 20 minutes? The price returns to your balance.',
  },
];

export function HowItWorksSection() {
  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-title"
      className="scroll-mt-20 px-4 py-20 sm:px-6 sm:py-28"
    >
      <SectionHeading id="how-it-works-title" eyebrow="How it works" title="Your code in four steps" />
      <ol className="mx-auto mt-14 grid max-w-6xl gap-8 sm:grid-cols-2 lg:grid-cols-4 lg:gap-6">
        {steps.map((step, index) => (
          <li key={step.title} className="relative">
            {index < steps.length - 1 && (
              <span
                aria-hidden="true"
                className="absolute top-6 left-14 hidden h-px w-[calc(100%-3rem)] bg-indigo-200 lg:block"
              />
            )}
            <span className="relative inline-flex size-12 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground shadow-md shadow-indigo-900/20">
              {index + 1}
            </span>
            <h3 className="mt-5 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 leading-relaxed text-slate-600">{step.text}</p>
          </li>
        ))}
      </ol>
      <p className="mx-auto mt-14 max-w-2xl text-center text-slate-600">
        Need a number for longer? Rent a long-term number or buy a renewable one from your dashboard, both in
        Beta.{' '}
        <Link
          to="/faq#long-term-numbers"
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          How rentals work
        </Link>
      </p>
    </section>
  );
}
