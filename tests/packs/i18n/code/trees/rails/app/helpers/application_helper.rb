module ApplicationHelper
  # The scope of a lazy key here is the template that calls the helper.
  def page_title
    content_for(:title) || t(".title")
  end

  def status_badge(status)
    content_tag :span, I18n.t("orders.status.#{status}"), class: "badge"
  end

  def translated(key)
    t(key)
  end
end
