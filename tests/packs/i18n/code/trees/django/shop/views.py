from django.contrib import messages
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, npgettext, pgettext

PAYMENT_STATES = [gettext_noop("Pending"), gettext_noop("Paid")]


def cart(request, items):
    count = len(items)
    messages.info(request, ngettext("%(count)d item in your cart", "%(count)d items in your cart", count)
                  % {"count": count})
    title = pgettext("page title", "Cart")
    delivered = npgettext("parcels", "%(n)d parcel delivered", "%(n)d parcels delivered", count) % {"n": count}
    return render(request, "shop/cart.html", {"title": title, "delivered": delivered})


def search(request):
    query = request.GET.get("q", "")
    return render(request, "shop/cart.html", {"title": _(f"Results for {query}")})
