import i18next, { t as translate } from "i18next";

export function notifySaved() {
  // The level comes from the server: t('notify.level.info') t('notify.level.error')
  const level = window.__level;
  console.log("Saving notification");
  return translate("notify.saved") + " " + i18next.t(`notify.level.${level}`);
}

export function notifyFailed(reason) {
  return i18next.t("notify.failed", { reason });
}
