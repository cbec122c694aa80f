import { defineMessage, defineMessages } from "react-intl";

export const messages = defineMessages({
  greeting: {
    id: "app.greeting",
    defaultMessage: "Hello, {name}!",
    description: "Shown at the top of the dashboard",
  },
  inbox: {
    defaultMessage: "You have {count, plural, one {# message} other {# messages}}",
    description: "Inbox counter",
  },
  signOut: {
    defaultMessage: "Sign out",
  },
});

export const title = defineMessage({
  defaultMessage: `Dashboard`,
  description: "Browser tab title",
});
