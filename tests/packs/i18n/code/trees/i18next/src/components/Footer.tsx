import { Trans } from "react-i18next";

export function Footer() {
  return (
    <footer className="footer">
      <p>
        <Trans i18nKey="footer.made_with" count={3}>
          Made with love by <a href="https://example.com">{"our team"}</a>
        </Trans>
      </p>
      {/* i18n-ignore */}
      <span>Build 2024.11 preview</span>
      <code>npm run build</code>
      <a href="https://status.example.com" title="https://status.example.com">Service status</a>
    </footer>
  );
}
