import React from "react";
import { injectIntl } from "react-intl";
import { $t } from "../i18n";

function Settings({ intl, section }) {
  return (
    <section>
      <h2>{$t({ id: "settings.title", defaultMessage: "Settings" })}</h2>
      <label>{intl.formatMessage({ id: `settings.section.${section}` })}</label>
      <p>Changes are saved automatically.</p>
      {/* i18n-ignore */}
      <span className="debug">Internal build</span>
    </section>
  );
}

export default injectIntl(Settings);
