import React from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";

type Props = { name: string; gender: "male" | "female"; section: string };

export const Profile: React.FC<Props> = ({ name, gender, section }) => {
  const { t } = useTranslation(["account", "common"]);
  const heading = t(`profile.heading`);
  return (
    <div>
      <h1 title={heading}>{heading}</h1>
      <Trans i18nKey="profile.welcome" t={t}>
        Welcome back, <strong>{{ name }}</strong>!
      </Trans>
      <p>
        <Trans>
          Read our <Link to="/terms">terms</Link> before you continue.
        </Trans>
      </p>
      <p>{t("profile.friend", { context: gender })}</p>
      <p>{t("profile.invite", { context: "female" })}</p>
      <p>{t(section)}</p>
      <p>{t("common:footer.copyright")}</p>
    </div>
  );
};
