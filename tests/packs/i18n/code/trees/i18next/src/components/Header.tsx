import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import logo from "../assets/logo.svg";

export function Header({ onSearch }: { onSearch: (q: string) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <header className="app-header" data-testid="header">
      <img src={logo} alt="Company logo" className="logo" />
      <h1>{t("header.title")}</h1>
      <input
        placeholder={t("header.search_placeholder")}
        onChange={(e) => onSearch(e.target.value)}
      />
      <nav aria-label="Main navigation">
        <Link to="/account" id="account-link">Your account</Link>
        <button onClick={() => i18n.changeLanguage("de")} title="Switch to German">
          DE
        </button>
      </nav>
      <span className="badge">{t('header.beta', 'Beta')}</span>
    </header>
  );
}
