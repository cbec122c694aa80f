from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.utils.translation import pgettext_lazy as p_


class Order(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        SHIPPED = "shipped", pgettext_lazy("order status", "Shipped")
        RETURNED = "returned", p_("order status", "Returned")

    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    note = models.TextField(_("note for the courier"), blank=True,
                            help_text=_("Left at the door when nobody "
                                        "answers."))

    class Meta:
        verbose_name = _("order")
        verbose_name_plural = _("orders")
