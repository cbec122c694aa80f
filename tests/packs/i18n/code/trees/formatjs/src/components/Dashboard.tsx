import { FormattedMessage, useIntl } from "react-intl";
import { messages } from "./messages";

export function Dashboard({ name, count }: { name: string; count: number }) {
  const intl = useIntl();
  const { formatMessage: fm } = intl;
  return (
    <main className="dashboard">
      <h1>{intl.formatMessage(messages.greeting, { name })}</h1>
      <p>{intl.formatMessage(messages.inbox, { count })}</p>
      <input
        placeholder={intl.formatMessage({
          id: "dashboard.search",
          defaultMessage: "Search messages",
        })}
      />
      <img src="/avatar.png" alt="Your avatar" />
      <p>
        <FormattedMessage
          defaultMessage="Last sign-in:
            {when, date, medium}"
          description="Footer of the dashboard"
          values={{ when: new Date() }}
        />
      </p>
      <FormattedMessage id="dashboard.help" defaultMessage="Need help? Write to us." />
      <button title={fm({ defaultMessage: "Refresh" })}>Refresh now</button>
    </main>
  );
}
