class Order < ApplicationRecord
  validate :not_too_late

  def summary
    [
      I18n.t(:total, scope: "orders"),
      I18n.translate("items", scope: [:orders], count: line_items.size),
      I18n.t("orders.discount", default: "Discount"),
      I18n.t("orders.shipping", default: [:"orders.total", "Shipping"]),
    ].join(" ")
  end

  private

  def not_too_late
    errors.add(:created_at, I18n.t("too_late", :scope => "activerecord.errors.messages")) if late?
  end
end
