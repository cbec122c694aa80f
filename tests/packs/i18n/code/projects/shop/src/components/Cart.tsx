import { useTranslation } from "react-i18next";

type Props = { items: string[]; state: "open" | "shipped"; onSave: () => void };

export function Cart({ items, state, onSave }: Props) {
  const { t } = useTranslation();
  const hint = 'a string that mentions t("cart.example") is not a call';
  console.log("rendering cart with", items.length);
  if (items.length === 0) {
    return <p className="cart-empty">{t("cart.empty")}</p>;
  }
  return (
    <section data-testid="cart">
      <h2>{t("cart.title")}</h2>
      <p>{t("cart.items", { count: items.length })}</p>
      <span className="badge">{t(`status.${state}`)}</span>
      <a href="/checkout">{t("cart.checkout")}</a>
      <button onClick={onSave}>Save changes</button>
    </section>
  );
}
