class UserMailer < ApplicationMailer
  def welcome(user)
    @user = user
    mail to: user.email, subject: t(".subject", app: "Acme")
  end
end
