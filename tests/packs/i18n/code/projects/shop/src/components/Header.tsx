import { Trans, useTranslation as useT } from "react-i18next";

export function Header({ name }: { name: string }) {
  const { t: translate } = useT();
  return (
    <header>
      <Trans i18nKey="header.welcome" values={{ name }} components={{ bold: <strong /> }} />
      <button type="button">{translate("header.signOut")}</button>
    </header>
  );
}
