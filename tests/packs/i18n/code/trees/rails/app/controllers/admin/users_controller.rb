module Admin
  class UsersController < ApplicationController
    before_action :require_admin
    rescue_from NotAllowed do
      redirect_to root_path, alert: t(".not_allowed")
    end

    def create
      @user = User.create!(user_params)
      redirect_to admin_users_path, notice: t(".created")
    end

    def destroy
      User.find(params[:id]).destroy
      flash[:notice] = t(".destroyed")
      # t(".commented_out") is not a call
      redirect_to admin_users_path
    end

    private

    def user_params
      params.require(:user).permit(:name, :email)
    end
  end
end
