import { useTranslation } from "react-i18next";
import type { CartItem, OrderStatus } from "./types";

interface CartProps {
  items: CartItem[];
  status: OrderStatus;
  position: number;
}

export default function Cart({ items, status, position }: CartProps) {
  const { t } = useTranslation("checkout", { keyPrefix: "cart" });
  const count = items.length;
  return (
    <section>
      <h2>{t("title")}</h2>
      <p>{t("items", { count })}</p>
      <p>{t("queue_position", { count: position, ordinal: true })}</p>
      <p className="status">{t(`status.${status}`)}</p>
      <button>{t("common:actions.remove")}</button>
      <strong>{t("total", { ns: "billing", defaultValue: "Total" })}</strong>
      <small>{t(`footnote`)}</small>
      <p>Prices include VAT.</p>
    </section>
  );
}
